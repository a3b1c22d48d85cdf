/// A row of `fare_products.txt`: a fare product's price for one rider category and fare medium.
public struct FareProduct: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.fareProducts

    enum Column: Int {
        case fareProductID, fareProductName, riderCategoryID, fareMediaID, amount, currency
    }

    /// The columns of the reference, in order.
    public static let columns: [ColumnSpec] = [
        .required("fare_product_id"), .optional("fare_product_name"), .optional("rider_category_id"),
        .optional("fare_media_id"), .required("amount"), .required("currency"),
    ]

    /// `fare_product_id`: the product; it repeats across rider categories and fare media.
    public var fareProductID: GTFSID
    /// `fare_product_name`: the name riders see.
    public var fareProductName: String?
    /// `rider_category_id`: the rider category; `nil` when empty, meaning any category.
    public var riderCategoryID: GTFSID?
    /// `fare_media_id`: the fare medium; `nil` when empty, meaning the medium is unknown.
    public var fareMediaID: GTFSID?
    /// `amount`: the price, exact; negative for a discount, zero when free.
    public var amount: CurrencyAmount
    /// `currency`: the ISO 4217 currency of ``amount``.
    public var currency: String

    /// Decodes a fare product.
    /// - Throws: ``GTFSError`` for an invalid or missing value.
    public init(row: Row) throws {
        typealias C = Column
        fareProductID = try row.requiredID(C.fareProductID.rawValue)
        fareProductName = row.text(C.fareProductName.rawValue)
        riderCategoryID = row.id(C.riderCategoryID.rawValue)
        fareMediaID = row.id(C.fareMediaID.rawValue)
        amount = try row.requiredCurrencyAmount(C.amount.rawValue)
        currency = try row.requiredCurrencyCode(C.currency.rawValue)
    }
}
