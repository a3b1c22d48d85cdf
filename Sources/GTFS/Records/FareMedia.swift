/// A row of `fare_media.txt`: a medium (ticket, card, app…) that holds or validates fare products.
public struct FareMedia: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.fareMedia

    enum Column: Int {
        case fareMediaID, fareMediaName, fareMediaType
    }

    /// The columns of the reference, in order.
    public static let columns: [ColumnSpec] = [
        .required("fare_media_id"), .optional("fare_media_name"), .required("fare_media_type"),
    ]

    /// `fare_media_id`: unique among fare media.
    public var fareMediaID: GTFSID
    /// `fare_media_name`: the name riders see; should be given for transit cards and mobile apps.
    public var fareMediaName: String?
    /// `fare_media_type`: the kind of medium.
    public var fareMediaType: FareMediaType

    /// Decodes a fare medium.
    /// - Throws: ``GTFSError`` for an invalid or missing value.
    public init(row: Row) throws {
        typealias C = Column
        fareMediaID = try row.requiredID(C.fareMediaID.rawValue)
        fareMediaName = row.text(C.fareMediaName.rawValue)
        fareMediaType = try row.requiredEnumeration(C.fareMediaType.rawValue)
    }
}
