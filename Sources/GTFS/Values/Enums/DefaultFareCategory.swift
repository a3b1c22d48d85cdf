/// `rider_categories.is_default_fare_category`: whether a rider category is the default one. Empty means
/// ``notDefault``.
public enum DefaultFareCategory: GTFSEnum {
    /// `0` (or empty): not the default category.
    case notDefault
    /// `1`: the default category, applied when a rider's category is unknown.
    case defaultCategory
    /// A code this package does not know.
    case unknown(Int)

    /// Maps a code to its case; a code without a case becomes `unknown(code)`.
    /// - Parameter code: the integer written in the file.
    public init(code: Int) {
        switch code {
        case 0: self = .notDefault
        case 1: self = .defaultCategory
        default: self = .unknown(code)
        }
    }

    /// The code written in the file.
    public var code: Int {
        switch self {
        case .notDefault: 0
        case .defaultCategory: 1
        case .unknown(let code): code
        }
    }
}
