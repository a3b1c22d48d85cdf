/// Reads any byte source in fixed chunks and delivers its lines, with transparent gzip input.
///
/// The reader keeps the unfinished tail of each chunk as a remainder and joins it with the next
/// chunk, so memory stays bounded by the chunk size plus the longest line, whatever the input size.
///
/// Line rules: `\n` ends a line (or a custom ``Options/delimiter``); a `\r` right before it is dropped,
/// so CRLF and LF files give the same lines; a last line without a terminator is still delivered (a
/// trailing `\r` dropped as well); empty lines are delivered; numbers are 1-based; a UTF-8 byte-order
/// mark at the very start is dropped. Gzip input is recognised by its magic bytes and inflated as a
/// stream, concatenated members included.
///
/// A reader is a single pass over its input: iteration continues where an earlier one stopped.
/// It is not thread-safe; ``enumerateLines(on:maxChunksInFlight:_:completion:)`` moves the work to
/// queues of its own.
///
/// ```swift
/// let reader = try Reader(path: "stops.txt.gz")
/// try reader.forEachLine { line in
///     print(line.number, line.string)
/// }
/// ```
public final class Reader {
    /// How a reader splits and limits its input.
    public struct Options: Sendable {
        /// Bytes requested from the source per read: 1 to ``maxChunkSize``. Default 4096.
        public var chunkSize: Int
        /// The longest line accepted, in bytes, without its terminator: 1 to ``maxLineLengthLimit``.
        /// Default 64 MiB.
        public var maxLineLength: Int
        /// The byte that ends a line. Default `\n`; with another delimiter, `\r` is kept.
        public var delimiter: UInt8
        /// Whether gzip input (recognised by its magic bytes) is inflated. Default `true`.
        public var decompressesGzip: Bool
        /// What a line longer than ``maxLineLength`` does: `false` (the default) throws
        /// ``ReaderError/lineTooLong(source:lineNumber:limit:)``; `true` drops its bytes as they arrive and
        /// delivers it with empty bytes and its length in ``Line/overlongLength``, and reading goes on. A line
        /// that runs past ``skippedLineLimit`` still throws, as soon as it does: input without line breaks
        /// (`/dev/zero`, a binary file) would otherwise be read to its end, or for ever.
        public var skipsOverlongLines = false

        /// The longest line ``skipsOverlongLines`` skips: 16 times ``maxLineLength``.
        public var skippedLineLimit: Int { maxLineLength.multipliedReportingOverflow(by: 16).overflow ? .max : maxLineLength * 16 }

        /// Creates options; ``skipsOverlongLines`` starts `false` and is set as a property.
        ///
        /// - Parameters:
        ///   - chunkSize: bytes requested from the source per read; default 4096.
        ///   - maxLineLength: the longest line accepted, in bytes; default 64 MiB.
        ///   - delimiter: the byte that ends a line; default `\n`.
        ///   - decompressesGzip: whether gzip input is inflated; default `true`.
        public init(
            chunkSize: Int = 4096,
            maxLineLength: Int = 64 << 20,
            delimiter: UInt8 = UInt8(ascii: "\n"),
            decompressesGzip: Bool = true
        ) {
            self.chunkSize = chunkSize
            self.maxLineLength = maxLineLength
            self.delimiter = delimiter
            self.decompressesGzip = decompressesGzip
        }

        /// The largest chunk size: a reader holds about two chunks plus its longest line, so this bounds
        /// what one option can make it allocate (16 MiB).
        public static let maxChunkSize = 16 << 20
        /// The largest line limit that can be set (1 GiB).
        public static let maxLineLengthLimit = 1 << 30

        /// Checks the limits.
        ///
        /// - Throws: ``ReaderError/invalidChunkSize(_:)`` or ``ReaderError/invalidMaxLineLength(_:)``.
        public func validate() throws {
            guard chunkSize > 0, chunkSize <= Self.maxChunkSize else { throw ReaderError.invalidChunkSize(chunkSize) }
            guard maxLineLength > 0, maxLineLength <= Self.maxLineLengthLimit else {
                throw ReaderError.invalidMaxLineLength(maxLineLength)
            }
        }
    }

    /// The decoding stage between the raw source and the line splitter.
    private enum Stage {
        case undetected
        case plain
        case gzip(Inflater)
    }

    /// The options in effect.
    public let options: Options
    /// The raw input.
    let source: any ByteSource
    let splitter: LineSplitter
    // A reader is single-threaded (not Sendable) and never re-entered, so its state skips Swift's dynamic
    // exclusivity checks, which otherwise cost a runtime call per line.
    @exclusivity(unchecked) private var stage = Stage.undetected
    /// Raw bytes read ahead during gzip detection, not yet handed on.
    @exclusivity(unchecked) private var probe: [UInt8] = []
    @exclusivity(unchecked) private var probeOffset = 0
    @exclusivity(unchecked) private var failure: (any Error)?

    /// Called with every chunk of decoded bytes (inflated where the input is gzip) as the reader takes it
    /// from the source, before it is split into lines: every byte of the content once, in order. Set it
    /// before the first read, e.g. to hash or copy the content.
    ///
    /// ```swift
    /// var size = 0
    /// reader.chunkObserver = { chunk in size += chunk.count }
    /// ```
    @exclusivity(unchecked) public var chunkObserver: ((UnsafeRawBufferPointer) -> Void)?

    /// Raw bytes read from the source so far (compressed bytes for gzip input): the progress measure.
    @exclusivity(unchecked) public private(set) var bytesRead: Int64 = 0

    /// The raw input's total size when known (regular files, memory), for progress.
    public var totalBytes: Int64? { source.byteCount }

    /// Whether the input turned out to be gzip; `false` until the first read.
    public var isGzip: Bool {
        if case .gzip = stage { return true }
        return false
    }

    /// The number of lines delivered so far.
    public var lineCount: Int { splitter.lineCount }

    /// Creates a reader over any byte source.
    ///
    /// - Parameters:
    ///   - source: the raw input.
    ///   - options: chunk size, line limit, delimiter, gzip detection.
    /// - Throws: ``ReaderError/invalidChunkSize(_:)`` or ``ReaderError/invalidMaxLineLength(_:)``.
    public init(source: any ByteSource, options: Options = Options()) throws {
        try options.validate()
        self.options = options
        self.source = source
        self.splitter = LineSplitter(
            chunkSize: options.chunkSize, maxLineLength: options.maxLineLength,
            delimiter: options.delimiter, sourceName: source.name,
            skippedLineLimit: options.skipsOverlongLines ? options.skippedLineLimit : nil)
    }

    /// Opens a file for reading.
    ///
    /// - Parameters:
    ///   - path: the file's path; gzip content is detected by its magic bytes, not its name.
    ///   - chunkSize: bytes per read, default 4096.
    /// - Throws: ``ReaderError/io(source:operation:errno:)`` when the file cannot be opened, or an
    ///   invalid-option error.
    public convenience init(path: String, chunkSize: Int = 4096) throws {
        try self.init(path: path, options: Options(chunkSize: chunkSize))
    }

    /// Opens a file for reading with full options.
    ///
    /// - Parameters:
    ///   - path: the file's path.
    ///   - options: chunk size, line limit, delimiter, gzip detection.
    /// - Throws: ``ReaderError/io(source:operation:errno:)`` or an invalid-option error.
    public convenience init(path: String, options: Options) throws {
        try options.validate()
        try self.init(source: FileSource(path: path), options: options)
    }

    /// Reads from an open file descriptor, which the caller keeps and closes.
    ///
    /// - Parameters:
    ///   - fileDescriptor: a readable descriptor, e.g. `STDIN_FILENO`.
    ///   - name: the name for error messages.
    ///   - options: chunk size, line limit, delimiter, gzip detection.
    /// - Throws: an invalid-option error.
    public convenience init(fileDescriptor: Int32, name: String, options: Options = Options()) throws {
        try self.init(source: FileSource(fileDescriptor: fileDescriptor, name: name), options: options)
    }

    /// Reads bytes held in memory.
    ///
    /// - Parameters:
    ///   - bytes: the input.
    ///   - options: chunk size, line limit, delimiter, gzip detection.
    /// - Throws: an invalid-option error.
    public convenience init(bytes: some Sequence<UInt8>, options: Options = Options()) throws {
        try self.init(source: MemorySource(bytes), options: options)
    }

    /// Calls `body` with every line, in order, without allocating per line.
    ///
    /// - Parameter body: receives each line; its bytes are valid only during the call.
    ///   Set `stop` to `true` to end the iteration early; a later call continues after that line.
    /// - Returns: the number of lines delivered by this call.
    /// - Throws: any ``ReaderError`` (I/O, gzip, line too long), or what `body` throws.
    @discardableResult
    public func forEachLine(_ body: (_ line: Line, _ stop: inout Bool) throws -> Void) throws -> Int {
        var delivered = 0
        var stop = false
        while let line = try nextLine() {
            delivered += 1
            try body(line, &stop)
            if stop { break }
        }
        return delivered
    }

    /// Calls `body` with every line, in order, without allocating per line.
    ///
    /// ```swift
    /// var count = 0
    /// try Reader(path: "stop_times.txt").forEachLine { _ in count += 1 }
    /// ```
    /// - Parameter body: receives each line; its bytes are valid only during the call.
    /// - Returns: the number of lines delivered.
    /// - Throws: any ``ReaderError``, or what `body` throws.
    @discardableResult
    public func forEachLine(_ body: (_ line: Line) throws -> Void) throws -> Int {
        try forEachLine { line, _ in try body(line) }
    }

    /// The next line, or `nil` at the end of the input: the pull form the other APIs are built on.
    ///
    /// The line's bytes stay valid until the next call on this reader.
    /// - Returns: the next line, or `nil` at the end of the input.
    /// - Throws: any ``ReaderError``; once thrown, every later call throws it again.
    public func nextLine() throws -> Line? {
        if let failure { throw failure }
        do {
            while true {
                if let line = try splitter.nextLine() { return line }
                if splitter.inputEnded { return nil }
                let window = splitter.writableWindow(count: windowSize)
                let count = try readChunk(into: window)
                if count == 0 { splitter.endInput() } else { splitter.commit(count) }
            }
        } catch {
            failure = error
            throw error
        }
    }

    /// Bytes decoded per step: the chunk size, or at least ``gzipWindowSize`` for gzip input, whose
    /// inflater runs markedly faster into a larger output buffer (the compressed reads stay fixed).
    private var windowSize: Int {
        if case .gzip = stage { return max(options.chunkSize, Self.gzipWindowSize) }
        return options.chunkSize
    }

    /// Reads the next chunk of decoded (inflated where needed) bytes and shows it to ``chunkObserver``.
    ///
    /// - Returns: the byte count, `0` at the end of the input.
    func readChunk(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = try readDecoded(into: buffer)
        if count > 0, let chunkObserver {
            chunkObserver(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
        return count
    }

    private func readDecoded(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        switch stage {
        case .plain:
            if probeOffset < probe.count { return takeProbe(into: buffer) }
            let count = try source.read(into: buffer)
            bytesRead += Int64(count)
            return count
        case .gzip(let inflater):
            return try inflater.inflate(into: buffer, from: source, compressedBytesRead: &bytesRead)
        case .undetected:
            try detectEncoding()
            return try readDecoded(into: buffer)
        }
    }

    /// Reads the first bytes and chooses between plain and gzip input.
    private func detectEncoding() throws {
        let chunk = options.chunkSize
        var buffer = [UInt8](repeating: 0, count: max(chunk, 2))
        var filled = 0
        while filled < 2 {
            let count = try buffer.withUnsafeMutableBytes { all in
                try source.read(into: UnsafeMutableRawBufferPointer(rebasing: all[filled ..< min(filled + chunk, all.count)]))
            }
            if count == 0 { break }
            filled += count
            bytesRead += Int64(count)
        }
        buffer.removeSubrange(filled...)
        if options.decompressesGzip && filled >= 2 && buffer[0] == 0x1F && buffer[1] == 0x8B {
            let inflater = try buffer.withUnsafeBytes { prefix in
                try Inflater(format: .gzip, prefix: prefix, readSize: max(chunk, Self.gzipReadSize), sourceName: source.name)
            }
            stage = .gzip(inflater)
        } else {
            probe = buffer
            stage = .plain
        }
    }

    private func takeProbe(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let count = min(buffer.count, probe.count - probeOffset)
        probe.withUnsafeBytes { all in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: all[probeOffset ..< probeOffset + count]))
        }
        probeOffset += count
        if probeOffset == probe.count { probe = [] ; probeOffset = 0 }
        return count
    }

    /// Compressed bytes requested per read from a gzip source (at least the chunk size).
    static let gzipReadSize = 64 * 1024

    /// The smallest inflated window for gzip input.
    static let gzipWindowSize = 64 * 1024
}

@available(*, unavailable, message: "a Reader is a single-threaded stream; use enumerateLines to work on queues")
extension Reader: Sendable {}
