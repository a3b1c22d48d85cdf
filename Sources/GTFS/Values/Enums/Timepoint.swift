/// `stop_times.timepoint`: whether the times are exact. Empty means ``exact``.
public enum Timepoint: GTFSEnum {
    /// `0`: approximate times.
    case approximate
    /// `1` (or empty): exact times.
    case exact
    /// A code this package does not know.
    case unknown(Int)

    /// Maps a code to its case; a code without a case becomes `unknown(code)`.
    /// - Parameter code: the integer written in the file.
    public init(code: Int) {
        switch code {
        case 0: self = .approximate
        case 1: self = .exact
        default: self = .unknown(code)
        }
    }

    /// The code written in the file.
    public var code: Int {
        switch self {
        case .approximate: 0
        case .exact: 1
        case .unknown(let code): code
        }
    }
}
