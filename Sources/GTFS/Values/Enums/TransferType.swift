/// `transfers.transfer_type`: how a connection between two stops, routes or trips works.
/// Empty means ``recommended``.
public enum TransferType: GTFSEnum {
    /// `0` (or empty): a recommended transfer point.
    case recommended
    /// `1`: a timed transfer; the departing vehicle waits for the arriving one.
    case timed
    /// `2`: the transfer needs at least `min_transfer_time`.
    case minimumTime
    /// `3`: transferring is not possible here.
    case notPossible
    /// `4`: an in-seat transfer; the rider stays on the same vehicle from one trip to the next.
    case inSeat
    /// `5`: in-seat transfer not allowed; the rider must alight and re-board.
    case inSeatNotAllowed
    /// A code this package does not know.
    case unknown(Int)

    /// Maps a code to its case; a code without a case becomes `unknown(code)`.
    /// - Parameter code: the integer written in the file.
    public init(code: Int) {
        switch code {
        case 0: self = .recommended
        case 1: self = .timed
        case 2: self = .minimumTime
        case 3: self = .notPossible
        case 4: self = .inSeat
        case 5: self = .inSeatNotAllowed
        default: self = .unknown(code)
        }
    }

    /// The code written in the file.
    public var code: Int {
        switch self {
        case .recommended: 0
        case .timed: 1
        case .minimumTime: 2
        case .notPossible: 3
        case .inSeat: 4
        case .inSeatNotAllowed: 5
        case .unknown(let code): code
        }
    }
}
