/// A row of `fare_attributes.txt` (Fares v1): a fare's price, currency, payment and transfer terms.
public struct FareAttribute: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.fareAttributes

    /// The fields of `fare_attributes.txt`, in the order of the reference: name, type and presence of each.
    public enum Field: Int, GTFSField {
        /// A column of `fare_attributes.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case fareID, price, currencyType, paymentMethod, transfers, agencyID, transferDuration

        /// The field as the reference describes it.
        public var spec: FieldSpec {
            switch self {
            case .fareID: FieldSpec("fare_id", .id, .required)
            case .price: FieldSpec("price", .currencyAmount, .required)
            case .currencyType: FieldSpec("currency_type", .text, .required)
            case .paymentMethod: FieldSpec("payment_method", .enumeration, .required)
            case .transfers: FieldSpec("transfers", .enumeration, .requiredOrEmpty)
            case .agencyID: FieldSpec("agency_id", .id)
            case .transferDuration: FieldSpec("transfer_duration", .integer)
            }
        }

        /// The key: `fare_id`.
        public static let key: [Field] = [.fareID]
    }


    /// `fare_id`: unique among fares.
    public var fareID: GTFSID
    /// `price`: the non-negative fare price in ``currencyType``, kept exactly as written.
    public var price: CurrencyAmount
    /// `currency_type`: the ISO 4217 currency of ``price``.
    public var currencyType: String
    /// `payment_method`: whether the fare is paid on board or before boarding.
    public var paymentMethod: PaymentMethod
    /// `transfers`: the transfers permitted; `nil` when empty, which means unlimited transfers.
    public var transfers: FareTransfers?
    /// `agency_id`: required when the feed has several agencies.
    public var agencyID: GTFSID?
    /// `transfer_duration`: how long a transfer stays valid, in seconds.
    public var transferDuration: Int?

    /// Decodes a fare.
    /// - Parameter row: one row of `fare_attributes.txt`.
    /// - Throws: ``GTFSError`` for an invalid or missing value.
    public init(row: CSVRow<Field>) throws {
        fareID = try row.requiredID(.fareID)
        price = try row.requiredCurrencyAmount(.price)
        currencyType = try row.requiredCurrencyCode(.currencyType)
        paymentMethod = try row.requiredEnumeration(.paymentMethod)
        transfers = try row.enumeration(.transfers)
        agencyID = row.id(.agencyID)
        transferDuration = try row.nonNegativeInt(.transferDuration)

        if price.units < 0 { throw row.error(.price, "is not a non-negative amount") }
    }
}

extension FareAttribute {
    /// Writes one value per field, in ``Field`` order, in their primitive form (see ``FieldSink``).
    /// - Parameter sink: receives the values.
    public func write<Sink: FieldSink>(to sink: inout Sink) {
        sink.write(fareID)
        sink.write(price)
        sink.write(currencyType)
        sink.write(paymentMethod)
        sink.write(transfers)
        sink.write(agencyID)
        sink.write(transferDuration)
    }
}
