/// `calendar_dates.exception_type`: whether a service runs on a date or not.
public enum ExceptionType: GTFSEnum {
    /// `1`: service added for the date.
    case added
    /// `2`: service removed for the date.
    case removed
    /// A code this package does not know.
    case unknown(Int)

    /// Maps a code to its case; a code without a case becomes `unknown(code)`.
    /// - Parameter code: the integer written in the file.
    public init(code: Int) {
        switch code {
        case 1: self = .added
        case 2: self = .removed
        default: self = .unknown(code)
        }
    }

    /// The code written in the file.
    public var code: Int {
        switch self {
        case .added: 1
        case .removed: 2
        case .unknown(let code): code
        }
    }
}
