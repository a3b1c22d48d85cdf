/// A row of `fare_media.txt`: a medium (ticket, card, app…) that holds or validates fare products.
public struct FareMedia: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.fareMedia

    /// The fields of `fare_media.txt`, in the order of the reference: name, type and presence of each.
    public enum Field: Int, GTFSField {
        /// A column of `fare_media.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case fareMediaID, fareMediaName, fareMediaType

        /// The field as the reference describes it.
        public var spec: FieldSpec {
            switch self {
            case .fareMediaID: FieldSpec("fare_media_id", .id, .required)
            case .fareMediaName: FieldSpec("fare_media_name", .text)
            case .fareMediaType: FieldSpec("fare_media_type", .enumeration, .required)
            }
        }

        /// The key: `fare_media_id`.
        public static let key: [Field] = [.fareMediaID]
    }


    /// `fare_media_id`: unique among fare media.
    public var fareMediaID: GTFSID
    /// `fare_media_name`: the name riders see; should be given for transit cards and mobile apps.
    public var fareMediaName: String?
    /// `fare_media_type`: the kind of medium.
    public var fareMediaType: FareMediaType

    /// Decodes a fare medium.
    /// - Parameter row: one row of `fare_media.txt`.
    /// - Throws: ``GTFSError`` for an invalid or missing value.
    public init(row: CSVRow<Field>) throws {
        fareMediaID = try row.requiredID(.fareMediaID)
        fareMediaName = row.text(.fareMediaName)
        fareMediaType = try row.requiredEnumeration(.fareMediaType)
    }
}

extension FareMedia {
    /// Writes one value per field, in ``Field`` order, in their primitive form (see ``FieldSink``).
    /// - Parameter sink: receives the values.
    public func write<Sink: FieldSink>(to sink: inout Sink) {
        sink.write(fareMediaID)
        sink.write(fareMediaName)
        sink.write(fareMediaType)
    }
}
