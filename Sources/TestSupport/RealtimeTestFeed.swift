/// The timetable of the realtime tests, in every target that has them (test targets cannot share code):
/// a weekday timetable in Berlin, T1 and T2 along S1…S5, a loop (T3), a trip past midnight (T4), a
/// frequency-based trip (F1, every 10 minutes from 08:00, exact times), a station with a platform, and the
/// service on Sunday 29 March 2026, when the clocks go forward.
public enum RealtimeTestFeed {
    public static let files: [String: String] = [
        "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,VBB,https://vbb.de,Europe/Berlin\n",
        "stops.txt": """
            stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station
            ST,Station,52.5200,13.4000,1,
            S1,One,52.5200,13.4000,0,ST
            S2,Two,52.5210,13.4100,0,
            S3,Three,52.5220,13.4200,0,
            S4,Four,52.5230,13.4300,0,
            S5,Five,52.5240,13.4400,0,

            """,
        "routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,A,M4,900\nR2,A,X9,3\n",
        "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWD,1,1,1,1,1,0,0,20261101,20261231\n",
        "trips.txt": """
            route_id,service_id,trip_id,trip_headsign,direction_id
            R1,WD,T1,Nord,0
            R1,WD,T2,Nord,0
            R1,WD,T3,Ring,1
            R1,WD,T4,Nacht,1
            R2,WD,F1,Takt,0

            """,
        "stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            T1,08:00:00,08:00:00,S1,1
            T1,08:05:00,08:05:00,S2,2
            T1,08:10:00,08:10:00,S3,3
            T1,08:15:00,08:15:00,S4,4
            T1,08:20:00,08:20:00,S5,5
            T2,08:30:00,08:30:00,S1,1
            T2,08:35:00,08:35:00,S2,2
            T2,08:40:00,08:40:00,S3,3
            T3,09:00:00,09:00:00,S1,10
            T3,09:05:00,09:05:00,S2,20
            T3,09:10:00,09:10:00,S1,30
            T3,09:15:00,09:15:00,S3,40
            T4,24:30:00,24:30:00,S1,1
            T4,24:40:00,24:40:00,S2,2
            T4,24:50:00,24:50:00,S3,3
            F1,08:00:00,08:00:00,S4,1
            F1,08:04:00,08:04:00,S5,2
            F1,08:08:00,08:08:00,S3,3

            """,
        // Sunday 29 March 2026, when the clocks go forward: its day starts at 23:00 the evening before.
        "calendar_dates.txt": "service_id,date,exception_type\nWD,20260329,1\n",
        "frequencies.txt": "trip_id,start_time,end_time,headway_secs,exact_times\nF1,08:00:00,09:00:00,600,1\n",
    ]
}
