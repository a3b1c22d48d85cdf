/// `continuous_pickup` and `continuous_drop_off` (routes and stop_times). Empty means ``notContinuous``.
public enum ContinuousStopping: GTFSEnum {
    /// `0`: continuous stopping.
    case continuous
    /// `1` (or empty): no continuous stopping. (Not `none`: on an optional value `== .none` would compare with `nil`.)
    case notContinuous
    /// `2`: phone the agency.
    case phoneAgency
    /// `3`: coordinate with the driver.
    case coordinateWithDriver
    /// A code this package does not know.
    case unknown(Int)

    /// Maps a code to its case; a code without a case becomes `unknown(code)`.
    /// - Parameter code: the integer written in the file.
    public init(code: Int) {
        switch code {
        case 0: self = .continuous
        case 1: self = .notContinuous
        case 2: self = .phoneAgency
        case 3: self = .coordinateWithDriver
        default: self = .unknown(code)
        }
    }

    /// The code written in the file.
    public var code: Int {
        switch self {
        case .continuous: 0
        case .notContinuous: 1
        case .phoneAgency: 2
        case .coordinateWithDriver: 3
        case .unknown(let code): code
        }
    }
}
