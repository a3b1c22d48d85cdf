/// `stops.location_type`: what kind of location a stop row describes.
public enum LocationType: GTFSEnum {
    /// `0` (or empty): a stop or platform where passengers board.
    case stop
    /// `1`: a station holding platforms.
    case station
    /// `2`: an entrance or exit of a station.
    case entrance
    /// `3`: a generic node inside a station, for pathways.
    case genericNode
    /// `4`: a boarding area on a platform.
    case boardingArea
    /// A code this package does not know.
    case unknown(Int)

    /// Maps a code to its case; a code without a case becomes `unknown(code)`.
    /// - Parameter code: the integer written in the file.
    public init(code: Int) {
        switch code {
        case 0: self = .stop
        case 1: self = .station
        case 2: self = .entrance
        case 3: self = .genericNode
        case 4: self = .boardingArea
        default: self = .unknown(code)
        }
    }

    /// The code written in the file.
    public var code: Int {
        switch self {
        case .stop: 0
        case .station: 1
        case .entrance: 2
        case .genericNode: 3
        case .boardingArea: 4
        case .unknown(let code): code
        }
    }
}
