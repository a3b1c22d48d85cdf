/// A row of `stops.txt`: a stop or platform, station, entrance, generic node or boarding area.
public struct Stop: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.stops

    enum Column: Int {
        case stopID, stopCode, stopName, ttsStopName, stopDesc, stopLat, stopLon, zoneID, stopURL
        case locationType, parentStation, stopTimezone, wheelchairBoarding, levelID, platformCode, stopAccess
    }

    /// The columns of the reference, in order.
    public static let columns: [ColumnSpec] = [
        .required("stop_id"), .optional("stop_code"), .optional("stop_name"), .optional("tts_stop_name"),
        .optional("stop_desc"), .optional("stop_lat"), .optional("stop_lon"), .optional("zone_id"),
        .optional("stop_url"), .optional("location_type"), .optional("parent_station"), .optional("stop_timezone"),
        .optional("wheelchair_boarding"), .optional("level_id"), .optional("platform_code"), .optional("stop_access"),
    ]

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
    /// - Throws: ``GTFSError`` for an invalid value or a broken rule.
    public init(row: Row) throws {
        typealias C = Column
        stopID = try row.requiredID(C.stopID.rawValue)
        stopCode = row.text(C.stopCode.rawValue)
        stopName = row.text(C.stopName.rawValue)
        ttsStopName = row.text(C.ttsStopName.rawValue)
        stopDescription = row.text(C.stopDesc.rawValue)
        latitude = try row.latitude(C.stopLat.rawValue)
        longitude = try row.longitude(C.stopLon.rawValue)
        zoneID = row.id(C.zoneID.rawValue)
        stopURL = row.url(C.stopURL.rawValue)
        locationType = try row.enumeration(C.locationType.rawValue) ?? .stop
        parentStation = row.id(C.parentStation.rawValue)
        stopTimezone = row.timezone(C.stopTimezone.rawValue)
        wheelchairBoarding = try row.enumeration(C.wheelchairBoarding.rawValue) ?? .noInformation
        levelID = row.id(C.levelID.rawValue)
        platformCode = row.text(C.platformCode.rawValue)
        stopAccess = try row.enumeration(C.stopAccess.rawValue)

        switch locationType {
        case .stop, .station, .entrance:
            if stopName == nil { throw row.ruleError(C.stopName.rawValue, "is required for location_type \(locationType.code)") }
            if latitude == nil { throw row.ruleError(C.stopLat.rawValue, "is required for location_type \(locationType.code)") }
            if longitude == nil { throw row.ruleError(C.stopLon.rawValue, "is required for location_type \(locationType.code)") }
        case .genericNode, .boardingArea, .unknown:
            break
        }
        switch locationType {
        case .entrance, .genericNode, .boardingArea:
            if parentStation == nil {
                throw row.ruleError(C.parentStation.rawValue, "is required for location_type \(locationType.code)")
            }
        case .station:
            if parentStation != nil { throw row.ruleError(C.parentStation.rawValue, "is forbidden for a station (location_type 1)") }
        case .stop, .unknown:
            break
        }
    }
}
