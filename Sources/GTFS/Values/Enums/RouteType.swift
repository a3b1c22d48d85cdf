/// `routes.route_type`: the kind of transport a route uses.
///
/// The reference defines `0`–`7`, `11` and `12`. Many feeds (VBB among them) use the Google extended
/// route types instead, TPEG-based codes from 100 to 1799, kept as ``extended(_:)``; ``baseType`` maps
/// the common ones to a basic mode.
///
/// ```swift
/// RouteType(code: 109).baseType // .rail (suburban railway)
/// ```
public enum RouteType: GTFSEnum {
    /// `0`: tram, streetcar or light rail.
    case tram
    /// `1`: subway or metro.
    case subway
    /// `2`: rail, intercity or long distance.
    case rail
    /// `3`: bus.
    case bus
    /// `4`: ferry.
    case ferry
    /// `5`: cable tram, pulled by a cable under the street.
    case cableTram
    /// `6`: aerial lift or suspended cable car (gondola, aerial tramway).
    case aerialLift
    /// `7`: funicular.
    case funicular
    /// `11`: trolleybus.
    case trolleybus
    /// `12`: monorail.
    case monorail
    /// `100`–`1799`: a Google extended route type (e.g. `109` suburban railway, `700` bus service).
    case extended(Int)
    /// A code this package does not know.
    case unknown(Int)

    /// The range of codes read as ``extended(_:)``.
    public static let extendedCodes = 100 ... 1799

    /// Maps a code to its case: a code of ``extendedCodes`` becomes ``extended(_:)``, any other code
    /// without a case ``unknown(_:)``.
    /// - Parameter code: the integer written in the file.
    public init(code: Int) {
        switch code {
        case 0: self = .tram
        case 1: self = .subway
        case 2: self = .rail
        case 3: self = .bus
        case 4: self = .ferry
        case 5: self = .cableTram
        case 6: self = .aerialLift
        case 7: self = .funicular
        case 11: self = .trolleybus
        case 12: self = .monorail
        case RouteType.extendedCodes: self = .extended(code)
        default: self = .unknown(code)
        }
    }

    /// The code written in the file.
    public var code: Int {
        switch self {
        case .tram: 0
        case .subway: 1
        case .rail: 2
        case .bus: 3
        case .ferry: 4
        case .cableTram: 5
        case .aerialLift: 6
        case .funicular: 7
        case .trolleybus: 11
        case .monorail: 12
        case .extended(let code): code
        case .unknown(let code): code
        }
    }

    /// The basic mode: the type itself for a basic code; for an extended code the basic mode of its
    /// range (100–117 railway → ``rail``, 400–404 urban railway → ``subway``, 405 → ``monorail``,
    /// 700–716 → ``bus``, 800 → ``trolleybus``, 900–906 → ``tram``, 1000 water transport and 1200 →
    /// ``ferry``, 1300–1307 → ``aerialLift``, 1400–1402 → ``funicular``); `nil` for extended codes
    /// without a basic counterpart (coach, air, taxi, …) and for unknown codes.
    public var baseType: RouteType? {
        switch self {
        case .tram, .subway, .rail, .bus, .ferry, .cableTram, .aerialLift, .funicular, .trolleybus, .monorail:
            return self
        case .extended(let code):
            switch code {
            case 100 ... 117: return .rail
            case 400 ... 404: return .subway
            case 405: return .monorail
            case 700 ... 716: return .bus
            case 800: return .trolleybus
            case 900 ... 906: return .tram
            case 1000, 1200: return .ferry
            case 1300 ... 1307: return .aerialLift
            case 1400 ... 1402: return .funicular
            default: return nil
            }
        case .unknown:
            return nil
        }
    }
}
