/// `trips.direction_id`: which of the two directions of a route a trip travels. The labels are the
/// feed's own; GTFS only says the two are opposite.
public enum DirectionID: GTFSEnum {
    /// `0`: travel in one direction (e.g. outbound).
    case outbound
    /// `1`: travel in the opposite direction (e.g. inbound).
    case inbound
    /// A code this package does not know.
    case unknown(Int)

    /// Maps a code to its case; a code without a case becomes `unknown(code)`.
    /// - Parameter code: the integer written in the file.
    public init(code: Int) {
        switch code {
        case 0: self = .outbound
        case 1: self = .inbound
        default: self = .unknown(code)
        }
    }

    /// The code written in the file.
    public var code: Int {
        switch self {
        case .outbound: 0
        case .inbound: 1
        case .unknown(let code): code
        }
    }
}
