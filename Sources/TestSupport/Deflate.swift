import CZlib

/// zlib compression for tests: gzip files and raw deflate (zip entries).
public enum Deflate {
    /// Compresses bytes as one gzip member (level 6).
    public static func gzip(_ input: [UInt8]) -> [UInt8] { compress(input, windowBits: 15 + 16) }

    /// Compresses bytes as raw deflate, as zip entries store them.
    public static func raw(_ input: [UInt8]) -> [UInt8] { compress(input, windowBits: -15) }

    /// Compresses with zlib; `precondition` failures only on zlib misuse, never on input.
    private static func compress(_ input: [UInt8], windowBits: Int32) -> [UInt8] {
        // zlib keeps a pointer to its stream: give it a stable heap address.
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer {
            deflateEnd(stream)
            stream.deinitialize(count: 1)
            stream.deallocate()
        }
        precondition(CZlib_deflateInit2(stream, 6, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY) == Z_OK)
        var output = [UInt8](repeating: 0, count: Int(deflateBound(stream, UInt(input.count))) + 64)
        var source = input
        let produced = source.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.pointee.next_in = inBuffer.baseAddress
                stream.pointee.avail_in = UInt32(inBuffer.count)
                stream.pointee.next_out = outBuffer.baseAddress
                stream.pointee.avail_out = UInt32(outBuffer.count)
                precondition(deflate(stream, Z_FINISH) == Z_STREAM_END)
                return outBuffer.count - Int(stream.pointee.avail_out)
            }
        }
        return Array(output[0 ..< produced])
    }
}
