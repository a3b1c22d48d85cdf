import GTFSSynth

/// Small zip archives for tests, in memory, written by the package's one zip writer (`GTFSSynth`'s
/// `ZipWriter`): stored or deflated entries, with ZIP64 fields on everything or none at all.
public struct TestZip {
    private var entries: [(name: String, content: [UInt8], deflate: Bool)] = []
    /// ZIP64 fields and end records on every entry and the archive, as some large-feed writers do. Without
    /// (the default) none at all, even past 65,535 entries, whose count is then capped as 32-bit writers cap it.
    public var zip64 = false

    /// An empty archive.
    public init() {}

    /// Adds a file holding `text`, deflated or stored.
    public mutating func add(_ name: String, _ text: String, deflate: Bool = true) {
        entries.append((name, Array(text.utf8), deflate))
    }

    /// The archive's bytes.
    public func archive() -> [UInt8] {
        let writer = ZipWriter(zip64: zip64 ? .always : .never)
        do {
            for entry in entries { try writer.add(entry.name, entry.content, method: entry.deflate ? .deflated : .stored) }
            try writer.finish()
        } catch {
            // In memory, only zlib failing to start (out of memory) can throw.
            preconditionFailure("\(error)")
        }
        return writer.bytes
    }
}
