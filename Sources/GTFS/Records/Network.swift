/// A row of `networks.txt`: a network of routes that fare leg rules refer to.
public struct Network: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.networks

    /// The fields of `networks.txt`, in the order of the reference: name, type and presence of each.
    public enum Field: Int, GTFSField {
        /// A column of `networks.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case networkID, networkName

        /// The field as the reference describes it.
        public var spec: FieldSpec {
            switch self {
            case .networkID: FieldSpec("network_id", .id, .required)
            case .networkName: FieldSpec("network_name", .text)
            }
        }

        /// The key: `network_id`.
        public static let key: [Field] = [.networkID]
    }


    /// `network_id`: unique among networks.
    public var networkID: GTFSID
    /// `network_name`: the name riders see.
    public var networkName: String?

    /// Decodes a network.
    /// - Parameter row: one row of `networks.txt`.
    /// - Throws: ``GTFSError`` when `network_id` is missing.
    public init(row: CSVRow<Field>) throws {
        networkID = try row.requiredID(.networkID)
        networkName = row.text(.networkName)
    }
}

extension Network {
    /// Writes one value per field, in ``Field`` order, in their primitive form (see ``FieldSink``).
    /// - Parameter sink: receives the values.
    public func write<Sink: FieldSink>(to sink: inout Sink) {
        sink.write(networkID)
        sink.write(networkName)
    }
}
