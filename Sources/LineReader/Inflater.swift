import CZlib

/// Streams compressed data through zlib into caller-provided buffers: gzip (member after member)
/// or raw deflate (a zip entry).
///
/// The `z_stream` is allocated once on the heap and never moves: zlib keeps pointers into it.
/// Input is pulled from a ``ByteSource`` in fixed reads; the compressed byte count is tracked
/// so that errors can say where the damage is.
final class Inflater {
    /// The container around the deflate data.
    enum Format {
        /// RFC 1952 gzip, possibly several members.
        case gzip
        /// RFC 1951 raw deflate, one stream (zip entries).
        case rawDeflate
    }

    private let format: Format
    private let stream: UnsafeMutablePointer<z_stream>
    private let input: UnsafeMutableRawPointer
    private let inputCapacity: Int
    /// Compressed bytes consumed before the current input buffer.
    private var offsetOfInput: Int64 = 0
    /// Bytes currently held in `input`.
    private var inputCount = 0
    private var sourceEnded = false
    /// Whether zlib is inside a member (between its header and its trailer).
    private var insideMember = true
    private var finished = false
    private let sourceName: String

    /// - Parameters:
    ///   - prefix: compressed bytes already read from the source (at least the magic number).
    ///   - readSize: how many compressed bytes to request from the source at a time.
    ///   - sourceName: the name for error messages.
    init(format: Format, prefix: UnsafeRawBufferPointer, readSize: Int, sourceName: String) throws {
        self.format = format
        self.sourceName = sourceName
        let capacity = max(readSize, prefix.count, 1)
        input = .allocate(byteCount: capacity, alignment: 16)
        inputCapacity = capacity
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        if let base = prefix.baseAddress, prefix.count > 0 {
            input.copyMemory(from: base, byteCount: prefix.count)
        }
        inputCount = prefix.count
        stream.pointee.next_in = input.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_in = UInt32(prefix.count)
        // 15 + 16: a 32 KiB window, gzip wrapper only (the magic bytes were already checked);
        // -15: a 32 KiB window, no wrapper.
        let status = CZlib_inflateInit2(stream, format == .gzip ? 15 + 16 : -15)
        guard status == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            input.deallocate()
            throw ReaderError.corruptCompressedData(
                source: sourceName, format: format.name, offset: 0, reason: "zlib could not start (status \(status))")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
        input.deallocate()
    }

    /// The compressed bytes zlib has consumed so far.
    private var consumedOffset: Int64 {
        offsetOfInput + Int64(inputCount - Int(stream.pointee.avail_in))
    }

    /// Inflates into `output` until it is full or the compressed input ends.
    ///
    /// - Parameters:
    ///   - output: the destination buffer.
    ///   - source: where compressed bytes come from.
    ///   - compressedBytesRead: incremented by every compressed byte read from `source`.
    /// - Returns: the number of bytes written; `0` only at the end of the last member.
    /// - Throws: ``ReaderError/corruptCompressedData(source:format:offset:reason:)`` or ``ReaderError/truncatedCompressedData(source:format:offset:)``.
    func inflate(
        into output: UnsafeMutableRawBufferPointer,
        from source: any ByteSource,
        compressedBytesRead: inout Int64
    ) throws -> Int {
        guard !finished, let outBase = output.baseAddress, output.count > 0 else { return 0 }
        stream.pointee.next_out = outBase.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = UInt32(clamping: output.count)
        let requested = Int(stream.pointee.avail_out)
        while stream.pointee.avail_out > 0 {
            if stream.pointee.avail_in == 0 && !sourceEnded {
                try refill(from: source, compressedBytesRead: &compressedBytesRead)
            }
            if !insideMember {
                // Between members: another member, zero padding, or the end.
                guard try startNextMember(from: source, compressedBytesRead: &compressedBytesRead) else {
                    finished = true
                    break
                }
            }
            // With no input left zlib may still hold output (a long match of highly compressible data):
            // it is asked again, and only when it can give nothing more has the stream ended early.
            let (inputBefore, outputBefore) = (stream.pointee.avail_in, stream.pointee.avail_out)
            let status = CZlib.inflate(stream, Z_NO_FLUSH)
            switch status {
            case Z_OK, Z_BUF_ERROR:
                if sourceEnded && inputBefore == 0 && stream.pointee.avail_out == outputBefore {
                    throw ReaderError.truncatedCompressedData(source: sourceName, format: format.name, offset: consumedOffset)
                }
                continue
            case Z_STREAM_END:
                insideMember = false
            default:
                let reason = stream.pointee.msg.map { String(cString: $0) } ?? "zlib status \(status)"
                throw ReaderError.corruptCompressedData(
                    source: sourceName, format: format.name, offset: consumedOffset, reason: reason)
            }
        }
        return requested - Int(stream.pointee.avail_out)
    }

    /// After a member's trailer: skips zero padding and resets zlib when another member follows.
    ///
    /// - Returns: `false` when the input is over.
    private func startNextMember(from source: any ByteSource, compressedBytesRead: inout Int64) throws -> Bool {
        while true {
            if format == .rawDeflate { return false }
            if stream.pointee.avail_in == 0 {
                if sourceEnded { return false }
                try refill(from: source, compressedBytesRead: &compressedBytesRead)
                continue
            }
            guard let next = stream.pointee.next_in else { return false }
            if next.pointee == 0 {
                // Zero padding after the last member (tape blocks, some writers): skip it.
                stream.pointee.next_in = next + 1
                stream.pointee.avail_in -= 1
                continue
            }
            guard next.pointee == 0x1F else {
                throw ReaderError.corruptCompressedData(
                    source: sourceName, format: format.name, offset: consumedOffset,
                    reason: "data after the end of a gzip member is not gzip")
            }
            inflateReset(stream)
            insideMember = true
            return true
        }
    }

    private func refill(from source: any ByteSource, compressedBytesRead: inout Int64) throws {
        offsetOfInput += Int64(inputCount)
        inputCount = 0
        stream.pointee.avail_in = 0
        let count = try source.read(into: UnsafeMutableRawBufferPointer(start: input, count: inputCapacity))
        if count == 0 {
            sourceEnded = true
            return
        }
        compressedBytesRead += Int64(count)
        inputCount = count
        stream.pointee.next_in = input.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_in = UInt32(count)
    }
}

extension Inflater.Format {
    /// The name used in error messages.
    var name: String {
        switch self {
        case .gzip: "gzip"
        case .rawDeflate: "deflate"
        }
    }
}
