import LineReader

/// Passes bytes through unchanged, unless they start with a UTF-16 byte-order mark: then the
/// UTF-16 (little- or big-endian) text is transcoded to UTF-8 on the fly, the mark dropped.
///
/// Unpaired surrogates become U+FFFD. Gzip-compressed UTF-16 is not recognised (the magic bytes
/// come first); such files are read as UTF-8 and reported by the encoding checks.
final class UTF16Source: ByteSource {
    private enum Mode {
        case undetected
        case passthrough
        case utf16(bigEndian: Bool)
    }

    private let base: any ByteSource
    private var mode = Mode.undetected
    /// Bytes read from the base and not yet handed on or transcoded.
    private var input: [UInt8] = []
    private var inputOffset = 0
    /// Transcoded UTF-8 not yet handed on.
    private var output: [UInt8] = []
    private var outputOffset = 0
    private var baseEnded = false
    private var pendingHighSurrogate: UInt16?

    var name: String { base.name }
    var byteCount: Int64? { base.byteCount }

    init(_ base: any ByteSource) {
        self.base = base
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        switch mode {
        case .undetected:
            try detect(chunk: max(buffer.count, 2))
            return try read(into: buffer)
        case .passthrough:
            if inputOffset < input.count { return drain(&input, &inputOffset, into: buffer) }
            return try base.read(into: buffer)
        case .utf16(let bigEndian):
            while outputOffset == output.count {
                output.removeAll(keepingCapacity: true)
                outputOffset = 0
                guard try transcodeMore(bigEndian: bigEndian, chunk: max(buffer.count, 64)) else { return 0 }
            }
            return drain(&output, &outputOffset, into: buffer)
        }
    }

    private func detect(chunk: Int) throws {
        try fill(minimum: 4, chunk: chunk)
        if FeedSource.startsLikeZip(input) {
            // A zip feed piped in (`cat feed.zip | gtfs-import -`): its directory is at the end, so it cannot be
            // streamed; as CSV it would be a page of binary errors.
            throw GTFSError(.unreadable, file: name, message: "is a zip archive, which cannot be read as a stream: give the .zip file's path")
        }
        if input.count >= 2 && input[0] == 0xFF && input[1] == 0xFE {
            mode = .utf16(bigEndian: false)
            inputOffset = 2
        } else if input.count >= 2 && input[0] == 0xFE && input[1] == 0xFF {
            mode = .utf16(bigEndian: true)
            inputOffset = 2
        } else {
            mode = .passthrough
        }
    }

    /// Reads from the base until `minimum` unread bytes are buffered or the base ends.
    private func fill(minimum: Int, chunk: Int) throws {
        if inputOffset > 0 {
            input.removeFirst(inputOffset)
            inputOffset = 0
        }
        var scratch = [UInt8](repeating: 0, count: chunk)
        while input.count < minimum && !baseEnded {
            let count = try scratch.withUnsafeMutableBytes { try base.read(into: $0) }
            if count == 0 { baseEnded = true } else { input.append(contentsOf: scratch[0 ..< count]) }
        }
    }

    /// Transcodes the next input into `output`; `false` at the end of the input.
    private func transcodeMore(bigEndian: Bool, chunk: Int) throws -> Bool {
        try fill(minimum: 2, chunk: chunk)
        let available = input.count - inputOffset
        if available < 2 {
            if available == 1 || pendingHighSurrogate != nil {
                // A dangling byte or high surrogate at the end.
                TextDecoding.appendUTF8(0xFFFD, to: &output)
                pendingHighSurrogate = nil
                inputOffset = input.count
                return true
            }
            return false
        }
        while input.count - inputOffset >= 2 {
            let first = UInt16(input[inputOffset]), second = UInt16(input[inputOffset + 1])
            let unit = bigEndian ? first << 8 | second : second << 8 | first
            inputOffset += 2
            if let high = pendingHighSurrogate {
                pendingHighSurrogate = nil
                if (0xDC00 ... 0xDFFF).contains(unit) {
                    let scalar = 0x10000 + (UInt32(high - 0xD800) << 10) + UInt32(unit - 0xDC00)
                    TextDecoding.appendUTF8(scalar, to: &output)
                    continue
                }
                TextDecoding.appendUTF8(0xFFFD, to: &output)
            }
            switch unit {
            case 0xD800 ... 0xDBFF: pendingHighSurrogate = unit
            case 0xDC00 ... 0xDFFF: TextDecoding.appendUTF8(0xFFFD, to: &output)
            default: TextDecoding.appendUTF8(UInt32(unit), to: &output)
            }
        }
        return true
    }

    private func drain(_ bytes: inout [UInt8], _ offset: inout Int, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let count = min(buffer.count, bytes.count - offset)
        bytes.withUnsafeBytes { all in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: all[offset ..< offset + count]))
        }
        offset += count
        return count
    }
}
