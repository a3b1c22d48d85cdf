/// A row of `networks.txt`: a network of routes that fare leg rules refer to.
public struct Network: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.networks

    enum Column: Int {
        case networkID, networkName
    }

    /// The columns of the reference, in order.
    public static let columns: [ColumnSpec] = [
        .required("network_id"), .optional("network_name"),
    ]

    /// `network_id`: unique among networks.
    public var networkID: GTFSID
    /// `network_name`: the name riders see.
    public var networkName: String?

    /// Decodes a network.
    /// - Throws: ``GTFSError`` when `network_id` is missing.
    public init(row: Row) throws {
        typealias C = Column
        networkID = try row.requiredID(C.networkID.rawValue)
        networkName = row.text(C.networkName.rawValue)
    }
}
