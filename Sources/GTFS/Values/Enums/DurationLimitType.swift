/// `fare_transfer_rules.duration_limit_type`: between which validations a transfer's duration limit is
/// measured.
public enum DurationLimitType: GTFSEnum {
    /// `0`: from the departure validation of the first leg to the arrival validation of the last leg.
    case departureToArrival
    /// `1`: from the departure validation of the first leg to the departure validation of the last leg.
    case departureToDeparture
    /// `2`: from the arrival validation of the first leg to the departure validation of the last leg.
    case arrivalToDeparture
    /// `3`: from the arrival validation of the first leg to the arrival validation of the last leg.
    case arrivalToArrival
    /// A code this package does not know.
    case unknown(Int)

    /// Maps a code to its case; a code without a case becomes `unknown(code)`.
    /// - Parameter code: the integer written in the file.
    public init(code: Int) {
        switch code {
        case 0: self = .departureToArrival
        case 1: self = .departureToDeparture
        case 2: self = .arrivalToDeparture
        case 3: self = .arrivalToArrival
        default: self = .unknown(code)
        }
    }

    /// The code written in the file.
    public var code: Int {
        switch self {
        case .departureToArrival: 0
        case .departureToDeparture: 1
        case .arrivalToDeparture: 2
        case .arrivalToArrival: 3
        case .unknown(let code): code
        }
    }
}
