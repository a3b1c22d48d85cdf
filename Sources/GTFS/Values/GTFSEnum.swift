/// An integer-coded GTFS enumeration that keeps values it does not know.
///
/// Each conforming enum has its known cases plus `unknown(Int)`, so a value newer than this
/// package never aborts an import.
public protocol GTFSEnum: Sendable, Hashable {
    /// Creates the case for a code; unknown codes become `unknown(code)`.
    /// - Parameter code: the integer written in the file.
    init(code: Int)
    /// The integer written in the file.
    var code: Int { get }
}
