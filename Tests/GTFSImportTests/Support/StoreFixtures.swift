import Foundation
import GRDB
import GTFS
@testable import GTFSImport
import LineReader
import TestSupport
import Testing

enum Fixtures {
    /// The repository's SampleData/berlin folder.
    static let berlin = Repository.berlin

    /// Parses a CSV text into records, requiring that no row is rejected.
    static func parse<R: GTFSRecord>(_ type: R.Type, _ csv: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [R] {
        var records: [R] = []
        let summary = try TableParser.parse(type, from: try Reader(bytes: Array(csv.utf8)), fileName: R.file.fileName) {
            records += $0
        }
        #expect(summary.rowsRejected == 0, "\(R.file.fileName): \(summary.errors)", sourceLocation: sourceLocation)
        return records
    }

    /// One stop per id, named `Stop 0`, `Stop 1`, … in order.
    static func stops(ids: [String]) throws -> [Stop] {
        let rows = ids.enumerated().map { index, id in "\(id),Stop \(index),52.5,13.4" }
        return try parse(Stop.self, "stop_id,stop_name,stop_lat,stop_lon\n" + rows.joined(separator: "\n") + "\n")
    }

    /// One valid data row for every file of the reference, with its header.
    static let oneRowPerFile: [GTFSFile: String] = [
        .agency: "agency_name,agency_url,agency_timezone\nVBB,https://vbb.de,Europe/Berlin\n",
        .stops: "stop_id,stop_name,stop_lat,stop_lon\nS1,Alexanderplatz,52.5219,13.4132\n",
        .routes: "route_id,route_short_name,route_type\nR1,M4,900\n",
        .trips: "route_id,service_id,trip_id\nR1,WD,T1\n",
        .stopTimes: "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,25:03:00,25:04:00,S1,1\n",
        .calendar: "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWD,1,1,1,1,1,0,0,20250101,20251231\n",
        .calendarDates: "service_id,date,exception_type\nWD,20251231,2\n",
        .fareAttributes: "fare_id,price,currency_type,payment_method,transfers\nF1,2.50,EUR,0,\n",
        .fareRules: "fare_id,route_id\nF1,R1\n",
        .timeframes: "timeframe_group_id,start_time,end_time,service_id\nPEAK,06:00:00,09:00:00,WD\n",
        .riderCategories: "rider_category_id,rider_category_name,is_default_fare_category\nadult,Adult,1\n",
        .fareMedia: "fare_media_id,fare_media_name,fare_media_type\ncard,Card,2\n",
        .fareProducts: "fare_product_id,fare_product_name,rider_category_id,fare_media_id,amount,currency\nP1,Single,adult,card,3.80,EUR\n",
        .fareLegRules: "leg_group_id,network_id,fare_product_id\nLG,N1,P1\n",
        .fareLegJoinRules: "from_network_id,to_network_id\nN1,N2\n",
        .fareTransferRules:
            "from_leg_group_id,to_leg_group_id,transfer_count,duration_limit,duration_limit_type,fare_transfer_type\nLG,LG,-1,5400,1,0\n",
        .areas: "area_id,area_name\nAB,Zone AB\n",
        .stopAreas: "area_id,stop_id\nAB,S1\n",
        .networks: "network_id,network_name\nN1,Berlin\n",
        .routeNetworks: "network_id,route_id\nN1,R1\n",
        .shapes: "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence,shape_dist_traveled\nSH1,52.5219,13.4132,1,0.0\n",
        .frequencies: "trip_id,start_time,end_time,headway_secs\nT1,06:00:00,09:00:00,600\n",
        .transfers: "from_stop_id,to_stop_id,transfer_type,min_transfer_time\nS1,S2,2,120\n",
        .pathways: "pathway_id,from_stop_id,to_stop_id,pathway_mode,is_bidirectional,length\nPW1,S1,S2,1,1,21.5\n",
        .levels: "level_id,level_index,level_name\nL0,0,Ground\n",
        .locationGroups: "location_group_id,location_group_name\nLG1,Group\n",
        .locationGroupStops: "location_group_id,stop_id\nLG1,S1\n",
        .bookingRules: "booking_rule_id,booking_type\nB1,0\n",
        .translations: "table_name,field_name,language,translation,record_id\nstops,stop_name,en,Alexander Square,S1\n",
        .feedInfo: "feed_publisher_name,feed_publisher_url,feed_lang,feed_start_date,feed_end_date\nVBB,https://vbb.de,de,20250101,20251231\n",
        .attributions: "organization_name,is_producer\nVBB,1\n",
    ]
}

/// Parses a file's one-row CSV and inserts it, with the file's concrete type.
struct OneRowInsertion: RecordTypeVisitor {
    let csv: String
    let db: Database

    func visit<R: GTFSRecord>(_ type: R.Type) throws -> Int {
        let records = try Fixtures.parse(R.self, csv)
        return try TableInserter<R>().insert(records, into: db)
    }
}
