import GTFSSynth

/// zlib compression for tests, through the synthetic feeds' `DeflateStream`: gzip files and raw deflate
/// (zip entries), at level 6.
public enum Deflate {
    /// Compresses bytes as one gzip member.
    public static func gzip(_ input: [UInt8]) -> [UInt8] { compress(input, .gzip) }

    /// Compresses bytes as raw deflate, as zip entries store them.
    public static func raw(_ input: [UInt8]) -> [UInt8] { compress(input, .raw) }

    private static func compress(_ input: [UInt8], _ container: DeflateStream.Container) -> [UInt8] {
        let memory = MemorySink()
        do {
            let stream = try DeflateStream(container: container, level: 6, target: memory, name: "test data")
            try input.withUnsafeBytes { try stream.write($0) }
            try stream.finish()
        } catch {
            // In memory, only zlib failing to start (out of memory) can throw.
            preconditionFailure("\(error)")
        }
        return memory.bytes
    }
}
