/// `stop_times.pickup_type` and `drop_off_type`.
public enum PickupDropOffType: GTFSEnum {
    /// `0` (or empty): regularly scheduled.
    case regular
    /// `1`: no pickup (or drop-off) available. (Not `none`: on an optional value `== .none` would compare with `nil`.)
    case notAvailable
    /// `2`: phone the agency to arrange.
    case phoneAgency
    /// `3`: coordinate with the driver.
    case coordinateWithDriver
    /// A code this package does not know.
    case unknown(Int)

    /// Maps a code to its case; a code without a case becomes `unknown(code)`.
    /// - Parameter code: the integer written in the file.
    public init(code: Int) {
        switch code {
        case 0: self = .regular
        case 1: self = .notAvailable
        case 2: self = .phoneAgency
        case 3: self = .coordinateWithDriver
        default: self = .unknown(code)
        }
    }

    /// The code written in the file.
    public var code: Int {
        switch self {
        case .regular: 0
        case .notAvailable: 1
        case .phoneAgency: 2
        case .coordinateWithDriver: 3
        case .unknown(let code): code
        }
    }
}
