import CZlib

/// Compresses bytes as one gzip member with zlib (level 6), for tests.
func gzipped(_ input: [UInt8]) -> [UInt8] {
    // zlib keeps a pointer to its stream: give it a stable heap address.
    let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    stream.initialize(to: z_stream())
    defer {
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }
    let status = CZlib_deflateInit2(stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY)
    precondition(status == Z_OK, "deflateInit2 failed")
    var output = [UInt8](repeating: 0, count: Int(deflateBound(stream, UInt(input.count))) + 64)
    var source = input
    let produced = source.withUnsafeMutableBufferPointer { inBuffer in
        output.withUnsafeMutableBufferPointer { outBuffer in
            stream.pointee.next_in = inBuffer.baseAddress
            stream.pointee.avail_in = UInt32(inBuffer.count)
            stream.pointee.next_out = outBuffer.baseAddress
            stream.pointee.avail_out = UInt32(outBuffer.count)
            let result = deflate(stream, Z_FINISH)
            precondition(result == Z_STREAM_END, "deflate did not finish")
            return outBuffer.count - Int(stream.pointee.avail_out)
        }
    }
    return Array(output[0 ..< produced])
}
