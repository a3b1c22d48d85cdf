/// A row of `areas.txt`: an area: a group of stops that fare leg rules refer to.
public struct Area: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.areas

    enum Column: Int {
        case areaID, areaName
    }

    /// The columns of the reference, in order.
    public static let columns: [ColumnSpec] = [
        .required("area_id"), .optional("area_name"),
    ]

    /// `area_id`: unique among areas.
    public var areaID: GTFSID
    /// `area_name`: the name riders see.
    public var areaName: String?

    /// Decodes an area.
    /// - Throws: ``GTFSError`` when `area_id` is missing.
    public init(row: Row) throws {
        typealias C = Column
        areaID = try row.requiredID(C.areaID.rawValue)
        areaName = row.text(C.areaName.rawValue)
    }
}
