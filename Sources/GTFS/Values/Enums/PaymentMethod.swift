/// `fare_attributes.payment_method`: when a Fares v1 fare is paid.
public enum PaymentMethod: GTFSEnum {
    /// `0`: paid on board.
    case onBoard
    /// `1`: must be paid before boarding.
    case beforeBoarding
    /// A code this package does not know.
    case unknown(Int)

    /// Maps a code to its case; a code without a case becomes `unknown(code)`.
    /// - Parameter code: the integer written in the file.
    public init(code: Int) {
        switch code {
        case 0: self = .onBoard
        case 1: self = .beforeBoarding
        default: self = .unknown(code)
        }
    }

    /// The code written in the file.
    public var code: Int {
        switch self {
        case .onBoard: 0
        case .beforeBoarding: 1
        case .unknown(let code): code
        }
    }
}
