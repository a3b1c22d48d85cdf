/// A row of `levels.txt`: a floor of a station.
public struct Level: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.levels

    enum Column: Int {
        case levelID, levelIndex, levelName
    }

    /// The columns of the reference, in order.
    public static let columns: [ColumnSpec] = [
        .required("level_id"), .required("level_index"), .optional("level_name"),
    ]

    /// `level_id`.
    public var levelID: GTFSID
    /// `level_index`: 0 at ground level, positive above, negative below.
    public var levelIndex: Double
    /// `level_name`, e.g. `Mezzanine`.
    public var levelName: String?

    /// Decodes a level.
    /// - Throws: ``GTFSError`` for an invalid value or a missing required one.
    public init(row: Row) throws {
        typealias C = Column
        levelID = try row.requiredID(C.levelID.rawValue)
        levelIndex = try row.requiredDouble(C.levelIndex.rawValue)
        levelName = row.text(C.levelName.rawValue)
    }
}
