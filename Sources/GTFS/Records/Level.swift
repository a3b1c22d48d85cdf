/// A row of `levels.txt`: a floor of a station.
public struct Level: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.levels

    /// The fields of `levels.txt`, in the order of the reference: name, type and presence of each.
    public enum Field: Int, GTFSField {
        /// A column of `levels.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case levelID, levelIndex, levelName

        /// The field as the reference describes it.
        public var spec: FieldSpec {
            switch self {
            case .levelID: FieldSpec("level_id", .id, .required)
            case .levelIndex: FieldSpec("level_index", .decimal, .required)
            case .levelName: FieldSpec("level_name", .text)
            }
        }

        /// The key: `level_id`.
        public static let key: [Field] = [.levelID]
    }


    /// `level_id`.
    public var levelID: GTFSID
    /// `level_index`: 0 at ground level, positive above, negative below.
    public var levelIndex: Double
    /// `level_name`, e.g. `Mezzanine`.
    public var levelName: String?

    /// Decodes a level.
    /// - Parameter row: one row of `levels.txt`.
    /// - Throws: ``GTFSError`` for an invalid value or a missing required one.
    public init(row: CSVRow<Field>) throws {
        levelID = try row.requiredID(.levelID)
        levelIndex = try row.requiredDouble(.levelIndex)
        levelName = row.text(.levelName)
    }
}

extension Level {
    /// Writes one value per field, in ``Field`` order, in their primitive form (see ``FieldSink``).
    /// - Parameter sink: receives the values.
    public func write<Sink: FieldSink>(to sink: inout Sink) {
        sink.write(levelID)
        sink.write(levelIndex)
        sink.write(levelName)
    }
}
