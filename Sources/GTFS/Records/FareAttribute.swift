/// A row of `fare_attributes.txt` (Fares v1): a fare's price, currency, payment and transfer terms.
public struct FareAttribute: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.fareAttributes

    enum Column: Int {
        case fareID, price, currencyType, paymentMethod, transfers, agencyID, transferDuration
    }

    /// The columns of the reference, in order.
    public static let columns: [ColumnSpec] = [
        .required("fare_id"), .required("price"), .required("currency_type"), .required("payment_method"),
        .required("transfers"), .optional("agency_id"), .optional("transfer_duration"),
    ]

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
    /// - Throws: ``GTFSError`` for an invalid or missing value.
    public init(row: Row) throws {
        typealias C = Column
        fareID = try row.requiredID(C.fareID.rawValue)
        price = try row.requiredCurrencyAmount(C.price.rawValue)
        currencyType = try row.requiredCurrencyCode(C.currencyType.rawValue)
        paymentMethod = try row.requiredEnumeration(C.paymentMethod.rawValue)
        transfers = try row.enumeration(C.transfers.rawValue)
        agencyID = row.id(C.agencyID.rawValue)
        transferDuration = try row.nonNegativeInt(C.transferDuration.rawValue)

        if price.units < 0 { throw row.error(C.price.rawValue, "is not a non-negative amount") }
    }
}
