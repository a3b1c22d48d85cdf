/// How far a feed parse has come, in raw input bytes (compressed bytes for gzip and zip).
public struct FeedProgress: Sendable {
    /// The file being read.
    public var fileName: String
    /// Raw bytes consumed so far, over all files.
    public var bytesRead: Int64
    /// The total raw size, when every file's size is known (not for standard input).
    public var totalBytes: Int64?
    /// Records delivered so far, per file name.
    public var rowsByFile: [String: Int]

    /// The fraction done, 0…1, when the total is known.
    public var fractionCompleted: Double? {
        guard let totalBytes, totalBytes > 0 else { return nil }
        return min(1, Double(bytesRead) / Double(totalBytes))
    }
}
