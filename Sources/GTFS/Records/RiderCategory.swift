/// A row of `rider_categories.txt`: a group of riders (seniors, students…) fares can be priced for.
public struct RiderCategory: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.riderCategories

    /// The fields of `rider_categories.txt`, in the order of the reference: name, type and presence of each.
    public enum Field: Int, GTFSField {
        /// A column of `rider_categories.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case riderCategoryID, riderCategoryName, isDefaultFareCategory, eligibilityURL

        /// The field as the reference describes it.
        public var spec: FieldSpec {
            switch self {
            case .riderCategoryID: FieldSpec("rider_category_id", .id, .required)
            case .riderCategoryName: FieldSpec("rider_category_name", .text, .required)
            case .isDefaultFareCategory: FieldSpec("is_default_fare_category", .enumeration, .requiredOrDefault)
            case .eligibilityURL: FieldSpec("eligibility_url", .text)
            }
        }

        /// The key: `rider_category_id`.
        public static let key: [Field] = [.riderCategoryID]
    }


    /// `rider_category_id`: unique among rider categories.
    public var riderCategoryID: GTFSID
    /// `rider_category_name`: the name riders see.
    public var riderCategoryName: String
    /// `is_default_fare_category`; empty reads as ``DefaultFareCategory/notDefault``.
    public var isDefaultFareCategory: DefaultFareCategory
    /// `eligibility_url`: a page explaining who belongs to the category.
    public var eligibilityURL: String?

    /// Decodes a rider category.
    /// - Parameter row: one row of `rider_categories.txt`.
    /// - Throws: ``GTFSError`` for an invalid or missing value.
    public init(row: CSVRow<Field>) throws {
        riderCategoryID = try row.requiredID(.riderCategoryID)
        riderCategoryName = try row.requiredText(.riderCategoryName)
        isDefaultFareCategory = try row.enumeration(.isDefaultFareCategory) ?? .notDefault
        eligibilityURL = row.url(.eligibilityURL)
    }
}

extension RiderCategory {
    /// Writes one value per field, in ``Field`` order, in their primitive form (see ``FieldSink``).
    /// - Parameter sink: receives the values.
    public func write<Sink: FieldSink>(to sink: inout Sink) {
        sink.write(riderCategoryID)
        sink.write(riderCategoryName)
        sink.write(isDefaultFareCategory)
        sink.write(eligibilityURL)
    }
}
