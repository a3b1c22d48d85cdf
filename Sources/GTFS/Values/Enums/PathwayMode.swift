/// `pathways.pathway_mode`: the kind of way a pathway is.
public enum PathwayMode: GTFSEnum {
    /// `1`: a walkway.
    case walkway
    /// `2`: stairs.
    case stairs
    /// `3`: a moving sidewalk or travelator.
    case movingSidewalk
    /// `4`: an escalator.
    case escalator
    /// `5`: an elevator.
    case elevator
    /// `6`: a fare gate into a paid area.
    case fareGate
    /// `7`: an exit gate from a paid area to an unpaid one; never bidirectional.
    case exitGate
    /// A code this package does not know.
    case unknown(Int)

    /// Maps a code to its case; a code without a case becomes `unknown(code)`.
    /// - Parameter code: the integer written in the file.
    public init(code: Int) {
        switch code {
        case 1: self = .walkway
        case 2: self = .stairs
        case 3: self = .movingSidewalk
        case 4: self = .escalator
        case 5: self = .elevator
        case 6: self = .fareGate
        case 7: self = .exitGate
        default: self = .unknown(code)
        }
    }

    /// The code written in the file.
    public var code: Int {
        switch self {
        case .walkway: 1
        case .stairs: 2
        case .movingSidewalk: 3
        case .escalator: 4
        case .elevator: 5
        case .fareGate: 6
        case .exitGate: 7
        case .unknown(let code): code
        }
    }
}
