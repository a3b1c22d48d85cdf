/// A row of `stops.txt`: a stop or platform, station, entrance, generic node or boarding area.
public struct Stop: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.stops

    /// The fields of `stops.txt`, in the order of the reference: name, type and presence of each.
    public enum Field: Int, GTFSField {
        /// A column of `stops.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case stopID, stopCode, stopName, ttsStopName, stopDesc, stopLat, stopLon, zoneID, stopURL, locationType
        /// A column of `stops.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case parentStation, stopTimezone, wheelchairBoarding, levelID, platformCode, stopAccess

        /// The field as the reference describes it.
        public var spec: FieldSpec {
            switch self {
            case .stopID: FieldSpec("stop_id", .id, .required)
            case .stopCode: FieldSpec("stop_code", .text)
            case .stopName: FieldSpec("stop_name", .text, .conditionallyRequired)
            case .ttsStopName: FieldSpec("tts_stop_name", .text)
            case .stopDesc: FieldSpec("stop_desc", .text)
            case .stopLat: FieldSpec("stop_lat", .decimal, .conditionallyRequired)
            case .stopLon: FieldSpec("stop_lon", .decimal, .conditionallyRequired)
            case .zoneID: FieldSpec("zone_id", .id)
            case .stopURL: FieldSpec("stop_url", .text)
            case .locationType: FieldSpec("location_type", .enumeration, .defaulted)
            case .parentStation: FieldSpec("parent_station", .id, .conditionallyRequired)
            case .stopTimezone: FieldSpec("stop_timezone", .text)
            case .wheelchairBoarding: FieldSpec("wheelchair_boarding", .enumeration, .defaulted)
            case .levelID: FieldSpec("level_id", .id)
            case .platformCode: FieldSpec("platform_code", .text)
            case .stopAccess: FieldSpec("stop_access", .enumeration)
            }
        }

        /// The key: `stop_id`.
        public static let key: [Field] = [.stopID]
    }


    /// `stop_id`: unique among stops, locations and location groups.
    public var stopID: GTFSID
    /// `stop_code`: the short code riders see.
    public var stopCode: String?
    /// `stop_name`: required for stops, stations and entrances.
    public var stopName: String?
    /// `tts_stop_name`: the name for text-to-speech.
    public var ttsStopName: String?
    /// `stop_desc`.
    public var stopDescription: String?
    /// `stop_lat`: required for stops, stations and entrances.
    public var latitude: Double?
    /// `stop_lon`: required for stops, stations and entrances.
    public var longitude: Double?
    /// `zone_id`: the fare zone.
    public var zoneID: GTFSID?
    /// `stop_url`.
    public var stopURL: String?
    /// `location_type`; empty reads as ``LocationType/stop``.
    public var locationType: LocationType
    /// `parent_station`: required for entrances, generic nodes and boarding areas; forbidden for stations.
    public var parentStation: GTFSID?
    /// `stop_timezone`.
    public var stopTimezone: String?
    /// `wheelchair_boarding`; empty reads as ``WheelchairBoarding/noInformation``.
    public var wheelchairBoarding: WheelchairBoarding
    /// `level_id`.
    public var levelID: GTFSID?
    /// `platform_code`.
    public var platformCode: String?
    /// `stop_access`.
    public var stopAccess: StopAccess?

    /// Decodes a stop and checks the conditionally required fields.
    /// - Parameter row: one row of `stops.txt`.
    /// - Throws: ``GTFSError`` for an invalid value or a broken rule.
    public init(row: CSVRow<Field>) throws {
        stopID = try row.requiredID(.stopID)
        stopCode = row.text(.stopCode)
        stopName = row.text(.stopName)
        ttsStopName = row.text(.ttsStopName)
        stopDescription = row.text(.stopDesc)
        latitude = try row.latitude(.stopLat)
        longitude = try row.longitude(.stopLon)
        zoneID = row.id(.zoneID)
        stopURL = row.url(.stopURL)
        locationType = try row.enumeration(.locationType) ?? .stop
        parentStation = row.id(.parentStation)
        stopTimezone = row.timezone(.stopTimezone)
        wheelchairBoarding = try row.enumeration(.wheelchairBoarding) ?? .noInformation
        levelID = row.id(.levelID)
        platformCode = row.text(.platformCode)
        stopAccess = try row.enumeration(.stopAccess)

        switch locationType {
        case .stop, .station, .entrance:
            if stopName == nil { throw row.ruleError(.stopName, "is required for location_type \(locationType.code)") }
            if latitude == nil { throw row.ruleError(.stopLat, "is required for location_type \(locationType.code)") }
            if longitude == nil { throw row.ruleError(.stopLon, "is required for location_type \(locationType.code)") }
        case .genericNode, .boardingArea, .unknown:
            break
        }
        switch locationType {
        case .entrance, .genericNode, .boardingArea:
            if parentStation == nil {
                throw row.ruleError(.parentStation, "is required for location_type \(locationType.code)")
            }
        case .station:
            if parentStation != nil { throw row.ruleError(.parentStation, "is forbidden for a station (location_type 1)") }
        case .stop, .unknown:
            break
        }
    }
}

extension Stop {
    /// Writes one value per field, in ``Field`` order, in their primitive form (see ``FieldSink``).
    /// - Parameter sink: receives the values.
    public func write<Sink: FieldSink>(to sink: inout Sink) {
        sink.write(stopID)
        sink.write(stopCode)
        sink.write(stopName)
        sink.write(ttsStopName)
        sink.write(stopDescription)
        sink.write(latitude)
        sink.write(longitude)
        sink.write(zoneID)
        sink.write(stopURL)
        sink.write(locationType)
        sink.write(parentStation)
        sink.write(stopTimezone)
        sink.write(wheelchairBoarding)
        sink.write(levelID)
        sink.write(platformCode)
        sink.write(stopAccess)
    }
}
