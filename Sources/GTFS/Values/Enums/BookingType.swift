/// `booking_rules.booking_type`: how far ahead a demand-responsive service must be booked.
public enum BookingType: GTFSEnum {
    /// `0`: real-time booking.
    case realTime
    /// `1`: up to same-day booking with advance notice.
    case sameDay
    /// `2`: up to prior-day(s) booking.
    case priorDays
    /// A code this package does not know.
    case unknown(Int)

    /// Maps a code to its case; a code without a case becomes `unknown(code)`.
    /// - Parameter code: the integer written in the file.
    public init(code: Int) {
        switch code {
        case 0: self = .realTime
        case 1: self = .sameDay
        case 2: self = .priorDays
        default: self = .unknown(code)
        }
    }

    /// The code written in the file.
    public var code: Int {
        switch self {
        case .realTime: 0
        case .sameDay: 1
        case .priorDays: 2
        case .unknown(let code): code
        }
    }
}
