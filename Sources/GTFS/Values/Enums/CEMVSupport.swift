/// `agency.cemv_support` and `routes.cemv_support`: whether riders can pay with contactless EMV
/// (open-loop bank cards or devices). A route's value takes precedence over its agency's.
public enum CEMVSupport: GTFSEnum {
    /// `0` (or empty): no cEMV information.
    case noInformation
    /// `1`: riders may use cEMV as fare media.
    case supported
    /// `2`: cEMV is not supported.
    case notSupported
    /// A code this package does not know.
    case unknown(Int)

    /// Maps a code to its case; a code without a case becomes `unknown(code)`.
    /// - Parameter code: the integer written in the file.
    public init(code: Int) {
        switch code {
        case 0: self = .noInformation
        case 1: self = .supported
        case 2: self = .notSupported
        default: self = .unknown(code)
        }
    }

    /// The code written in the file.
    public var code: Int {
        switch self {
        case .noInformation: 0
        case .supported: 1
        case .notSupported: 2
        case .unknown(let code): code
        }
    }
}
