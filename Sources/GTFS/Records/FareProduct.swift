/// A row of `fare_products.txt`: a fare product's price for one rider category and fare medium.
public struct FareProduct: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.fareProducts

    /// The fields of `fare_products.txt`, in the order of the reference: name, type and presence of each.
    public enum Field: Int, GTFSField {
        /// A column of `fare_products.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case fareProductID, fareProductName, riderCategoryID, fareMediaID, amount, currency

        /// The field as the reference describes it.
        public var spec: FieldSpec {
            switch self {
            case .fareProductID: FieldSpec("fare_product_id", .id, .required)
            case .fareProductName: FieldSpec("fare_product_name", .text)
            case .riderCategoryID: FieldSpec("rider_category_id", .id)
            case .fareMediaID: FieldSpec("fare_media_id", .id)
            case .amount: FieldSpec("amount", .currencyAmount, .required)
            case .currency: FieldSpec("currency", .text, .required)
            }
        }

        /// The key: `fare_product_id`, `rider_category_id`, `fare_media_id`.
        public static let key: [Field] = [.fareProductID, .riderCategoryID, .fareMediaID]
    }


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
    /// - Parameter row: one row of `fare_products.txt`.
    /// - Throws: ``GTFSError`` for an invalid or missing value.
    public init(row: CSVRow<Field>) throws {
        fareProductID = try row.requiredID(.fareProductID)
        fareProductName = row.text(.fareProductName)
        riderCategoryID = row.id(.riderCategoryID)
        fareMediaID = row.id(.fareMediaID)
        amount = try row.requiredCurrencyAmount(.amount)
        currency = try row.requiredCurrencyCode(.currency)
    }
}

extension FareProduct {
    /// Writes one value per field, in ``Field`` order, in their primitive form (see ``FieldSink``).
    /// - Parameter sink: receives the values.
    public func write<Sink: FieldSink>(to sink: inout Sink) {
        sink.write(fareProductID)
        sink.write(fareProductName)
        sink.write(riderCategoryID)
        sink.write(fareMediaID)
        sink.write(amount)
        sink.write(currency)
    }
}
