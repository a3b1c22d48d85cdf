/// `fare_media.fare_media_type`: what holds or validates a fare product.
public enum FareMediaType: GTFSEnum {
    /// `0`: no fare media, e.g. cash paid to a driver with no ticket given.
    case noMedia
    /// `1`: a physical paper ticket.
    case physicalPaperTicket
    /// `2`: a physical transit card.
    case physicalTransitCard
    /// `3`: cEMV, an open-loop contactless bank card or device.
    case contactlessEMV
    /// `4`: a mobile app.
    case mobileApp
    /// A code this package does not know.
    case unknown(Int)

    /// Maps a code to its case; a code without a case becomes `unknown(code)`.
    /// - Parameter code: the integer written in the file.
    public init(code: Int) {
        switch code {
        case 0: self = .noMedia
        case 1: self = .physicalPaperTicket
        case 2: self = .physicalTransitCard
        case 3: self = .contactlessEMV
        case 4: self = .mobileApp
        default: self = .unknown(code)
        }
    }

    /// The code written in the file.
    public var code: Int {
        switch self {
        case .noMedia: 0
        case .physicalPaperTicket: 1
        case .physicalTransitCard: 2
        case .contactlessEMV: 3
        case .mobileApp: 4
        case .unknown(let code): code
        }
    }
}
