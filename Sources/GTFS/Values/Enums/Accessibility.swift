/// `trips.wheelchair_accessible`, `bikes_allowed` and `cars_allowed`: whether a trip's vehicle can
/// carry at least one wheelchair, bicycle or car. Empty means ``noInformation``.
public enum Accessibility: GTFSEnum {
    /// `0` (or empty): no information.
    case noInformation
    /// `1`: the vehicle can carry at least one.
    case allowed
    /// `2`: none can be carried.
    case notAllowed
    /// A code this package does not know.
    case unknown(Int)

    /// Maps a code to its case; a code without a case becomes `unknown(code)`.
    /// - Parameter code: the integer written in the file.
    public init(code: Int) {
        switch code {
        case 0: self = .noInformation
        case 1: self = .allowed
        case 2: self = .notAllowed
        default: self = .unknown(code)
        }
    }

    /// The code written in the file.
    public var code: Int {
        switch self {
        case .noInformation: 0
        case .allowed: 1
        case .notAllowed: 2
        case .unknown(let code): code
        }
    }
}
