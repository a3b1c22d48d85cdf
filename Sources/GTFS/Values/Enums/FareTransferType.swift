/// `fare_transfer_rules.fare_transfer_type`: how the cost of a transfer between two legs is computed.
public enum FareTransferType: GTFSEnum {
    /// `0`: A + AB, the from-leg's fare product plus the transfer's fare product.
    case fromLegPlusTransfer
    /// `1`: A + AB + B, the from-leg's, the transfer's and the to-leg's fare products.
    case fromLegPlusTransferPlusToLeg
    /// `2`: AB, the transfer's fare product only.
    case transferOnly
    /// A code this package does not know.
    case unknown(Int)

    /// Maps a code to its case; a code without a case becomes `unknown(code)`.
    /// - Parameter code: the integer written in the file.
    public init(code: Int) {
        switch code {
        case 0: self = .fromLegPlusTransfer
        case 1: self = .fromLegPlusTransferPlusToLeg
        case 2: self = .transferOnly
        default: self = .unknown(code)
        }
    }

    /// The code written in the file.
    public var code: Int {
        switch self {
        case .fromLegPlusTransfer: 0
        case .fromLegPlusTransferPlusToLeg: 1
        case .transferOnly: 2
        case .unknown(let code): code
        }
    }
}
