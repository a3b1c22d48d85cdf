import CZlib

/// Compresses what it is given with zlib and hands the compressed bytes to another sink as they come.
///
/// Raw deflate for zip entries, or one gzip member (no file name, modification time 0, so the output is
/// reproducible).
package final class DeflateStream: ByteSink {
    /// The container around the deflate data.
    package enum Container {
        /// Raw deflate, as a zip entry stores it.
        case raw
        /// A gzip member.
        case gzip

        var windowBits: Int32 {
            switch self {
            case .raw: -15
            case .gzip: 15 + 16
            }
        }
    }

    /// Compressed bytes handed on so far.
    private(set) var compressedCount: Int64 = 0
    private let target: any ByteSink
    private let name: String
    // zlib keeps a pointer to its stream: give it a stable heap address.
    private let stream: UnsafeMutablePointer<z_stream>
    private let output: UnsafeMutablePointer<UInt8>
    private let outputCapacity = 256 * 1024
    private var finished = false

    /// Starts a stream.
    ///
    /// - Parameters:
    ///   - container: raw deflate or gzip.
    ///   - level: zlib's level, 1 (fastest) to 9 (smallest).
    ///   - target: receives the compressed bytes.
    ///   - name: the file, for error messages.
    /// - Throws: ``SyntheticFeedError`` when zlib cannot start (out of memory).
    package init(container: Container, level: Int32, target: any ByteSink, name: String) throws {
        // Start zlib before any stored property is set: a failure then leaves nothing for deinit to free twice.
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = CZlib_deflateInit2(stream, level, Z_DEFLATED, container.windowBits, 8, Z_DEFAULT_STRATEGY)
        guard status == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw SyntheticFeedError(path: name, message: "cannot start zlib compression (status \(status))")
        }
        self.stream = stream
        self.target = target
        self.name = name
        output = .allocate(capacity: outputCapacity)
    }

    deinit {
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
        output.deallocate()
    }

    package func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        var offset = 0
        // avail_in is 32-bit: feed very large inputs in slices.
        while offset < bytes.count {
            let slice = min(bytes.count - offset, 1 << 30)
            stream.pointee.next_in = UnsafeMutablePointer(mutating: (base + offset).assumingMemoryBound(to: Bytef.self))
            stream.pointee.avail_in = UInt32(slice)
            repeat {
                try run(flush: Z_NO_FLUSH)
            } while stream.pointee.avail_in > 0
            offset += slice
        }
    }

    /// Ends the stream and hands on its last bytes (and, for gzip, the trailer).
    package func finish() throws {
        guard !finished else { return }
        stream.pointee.next_in = nil
        stream.pointee.avail_in = 0
        var status = Z_OK
        repeat {
            status = try run(flush: Z_FINISH)
            // A fresh output buffer always allows progress: no progress means a broken stream.
            if status == Z_BUF_ERROR { throw SyntheticFeedError(path: name, message: "zlib could not finish the stream") }
        } while status != Z_STREAM_END
        finished = true
    }

    /// One `deflate` call into the output buffer; hands on what it produced.
    @discardableResult
    private func run(flush: Int32) throws -> Int32 {
        stream.pointee.next_out = output
        stream.pointee.avail_out = UInt32(outputCapacity)
        let status = deflate(stream, flush)
        guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
            throw SyntheticFeedError(path: name, message: "zlib compression failed (status \(status))")
        }
        let produced = outputCapacity - Int(stream.pointee.avail_out)
        if produced > 0 {
            try target.write(UnsafeRawBufferPointer(start: output, count: produced))
            compressedCount += Int64(produced)
        }
        return status
    }
}
