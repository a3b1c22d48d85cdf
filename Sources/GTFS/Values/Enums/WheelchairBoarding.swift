/// `stops.wheelchair_boarding`: accessibility of a stop, station or entrance.
public enum WheelchairBoarding: GTFSEnum {
    /// `0` (or empty): no information, or inherited from the parent station.
    case noInformation
    /// `1`: boarding (or an accessible path) is possible.
    case accessible
    /// `2`: not possible.
    case notAccessible
    /// A code this package does not know.
    case unknown(Int)

    /// Maps a code to its case; a code without a case becomes `unknown(code)`.
    /// - Parameter code: the integer written in the file.
    public init(code: Int) {
        switch code {
        case 0: self = .noInformation
        case 1: self = .accessible
        case 2: self = .notAccessible
        default: self = .unknown(code)
        }
    }

    /// The code written in the file.
    public var code: Int {
        switch self {
        case .noInformation: 0
        case .accessible: 1
        case .notAccessible: 2
        case .unknown(let code): code
        }
    }
}
