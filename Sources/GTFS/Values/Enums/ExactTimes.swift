/// `frequencies.exact_times`: whether a frequency entry is a headway or an exact timetable.
/// Empty means ``frequencyBased``.
public enum ExactTimes: GTFSEnum {
    /// `0` (or empty): frequency-based trips; vehicles come about every `headway_secs`.
    case frequencyBased
    /// `1`: schedule-based trips that start exactly every `headway_secs`.
    case scheduleBased
    /// A code this package does not know.
    case unknown(Int)

    /// Maps a code to its case; a code without a case becomes `unknown(code)`.
    /// - Parameter code: the integer written in the file.
    public init(code: Int) {
        switch code {
        case 0: self = .frequencyBased
        case 1: self = .scheduleBased
        default: self = .unknown(code)
        }
    }

    /// The code written in the file.
    public var code: Int {
        switch self {
        case .frequencyBased: 0
        case .scheduleBased: 1
        case .unknown(let code): code
        }
    }
}
