/// `fare_attributes.transfers`: how many transfers a Fares v1 fare permits.
///
/// An empty cell means unlimited transfers; ``FareAttribute/transfers`` is then `nil`.
public enum FareTransfers: GTFSEnum {
    /// `0`: no transfers.
    case noTransfers
    /// `1`: one transfer.
    case oneTransfer
    /// `2`: two transfers.
    case twoTransfers
    /// A code this package does not know.
    case unknown(Int)

    /// Maps a code to its case; a code without a case becomes `unknown(code)`.
    /// - Parameter code: the integer written in the file.
    public init(code: Int) {
        switch code {
        case 0: self = .noTransfers
        case 1: self = .oneTransfer
        case 2: self = .twoTransfers
        default: self = .unknown(code)
        }
    }

    /// The code written in the file.
    public var code: Int {
        switch self {
        case .noTransfers: 0
        case .oneTransfer: 1
        case .twoTransfers: 2
        case .unknown(let code): code
        }
    }
}
