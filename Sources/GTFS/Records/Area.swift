/// A row of `areas.txt`: an area: a group of stops that fare leg rules refer to.
public struct Area: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.areas

    /// The fields of `areas.txt`, in the order of the reference: name, type and presence of each.
    public enum Field: Int, GTFSField {
        /// A column of `areas.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case areaID, areaName

        /// The field as the reference describes it.
        public var spec: FieldSpec {
            switch self {
            case .areaID: FieldSpec("area_id", .id, .required)
            case .areaName: FieldSpec("area_name", .text)
            }
        }

        /// The key: `area_id`.
        public static let key: [Field] = [.areaID]
    }


    /// `area_id`: unique among areas.
    public var areaID: GTFSID
    /// `area_name`: the name riders see.
    public var areaName: String?

    /// Decodes an area.
    /// - Parameter row: one row of `areas.txt`.
    /// - Throws: ``GTFSError`` when `area_id` is missing.
    public init(row: CSVRow<Field>) throws {
        areaID = try row.requiredID(.areaID)
        areaName = row.text(.areaName)
    }
}

extension Area {
    /// Writes one value per field, in ``Field`` order, in their primitive form (see ``FieldSink``).
    /// - Parameter sink: receives the values.
    public func write<Sink: FieldSink>(to sink: inout Sink) {
        sink.write(areaID)
        sink.write(areaName)
    }
}
