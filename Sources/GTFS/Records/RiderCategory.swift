/// A row of `rider_categories.txt`: a group of riders (seniors, students…) fares can be priced for.
public struct RiderCategory: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.riderCategories

    enum Column: Int {
        case riderCategoryID, riderCategoryName, isDefaultFareCategory, eligibilityURL
    }

    /// The columns of the reference, in order.
    public static let columns: [ColumnSpec] = [
        .required("rider_category_id"), .required("rider_category_name"), .required("is_default_fare_category"),
        .optional("eligibility_url"),
    ]

    /// `rider_category_id`: unique among rider categories.
    public var riderCategoryID: GTFSID
    /// `rider_category_name`: the name riders see.
    public var riderCategoryName: String
    /// `is_default_fare_category`; empty reads as ``DefaultFareCategory/notDefault``.
    public var isDefaultFareCategory: DefaultFareCategory
    /// `eligibility_url`: a page explaining who belongs to the category.
    public var eligibilityURL: String?

    /// Decodes a rider category.
    /// - Throws: ``GTFSError`` for an invalid or missing value.
    public init(row: Row) throws {
        typealias C = Column
        riderCategoryID = try row.requiredID(C.riderCategoryID.rawValue)
        riderCategoryName = try row.requiredText(C.riderCategoryName.rawValue)
        isDefaultFareCategory = try row.enumeration(C.isDefaultFareCategory.rawValue) ?? .notDefault
        eligibilityURL = row.url(C.eligibilityURL.rawValue)
    }
}
