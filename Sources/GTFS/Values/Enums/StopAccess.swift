/// `stops.stop_access`: how a stop with a parent station is reached from the street.
public enum StopAccess: GTFSEnum {
    /// `0`: only through the station (entrances, pathways).
    case throughStation
    /// `1`: directly from the street.
    case fromStreet
    /// A code this package does not know.
    case unknown(Int)

    /// Maps a code to its case; a code without a case becomes `unknown(code)`.
    /// - Parameter code: the integer written in the file.
    public init(code: Int) {
        switch code {
        case 0: self = .throughStation
        case 1: self = .fromStreet
        default: self = .unknown(code)
        }
    }

    /// The code written in the file.
    public var code: Int {
        switch self {
        case .throughStation: 0
        case .fromStreet: 1
        case .unknown(let code): code
        }
    }
}
