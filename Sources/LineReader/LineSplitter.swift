import CLineScan

import Platform

/// The remainder-buffering core: holds the unfinished tail of the input and cuts complete lines out of it.
///
/// Bytes arrive either by reading straight into ``writableWindow(count:)`` and ``commit(_:)`` (the
/// pull path, no copy) or by ``append(_:)`` (the push path). ``nextLine()`` returns lines as slices of
/// the buffer. Scanning resumes where the previous scan stopped, so a long line costs O(n), and the
/// buffer never grows beyond `maxLineLength` plus one chunk.
///
/// Delimiters are found 64 bytes at a time as a bit mask (SSE2 where available), and lines are then
/// cut one set bit after another, which costs a few instructions per line instead of a `memchr` call.
/// Its state is single-threaded and no accessor re-enters, so the hot fields skip Swift's dynamic
/// exclusivity checks (`@exclusivity(unchecked)`), which otherwise cost a runtime call per line.
final class LineSplitter {
    @exclusivity(unchecked) private var storage: UnsafeMutableRawPointer
    @exclusivity(unchecked) private var capacity: Int
    /// Start of the bytes not yet delivered.
    @exclusivity(unchecked) private var start = 0
    /// End of the valid bytes.
    @exclusivity(unchecked) private var end = 0
    /// Bytes before `scanned` have been scanned: their delimiters are in `mask` or were consumed.
    @exclusivity(unchecked) private var scanned = 0
    /// Delimiter positions not yet consumed, relative to `maskBase` (bit i: byte `maskBase + i`).
    @exclusivity(unchecked) private var mask: UInt64 = 0
    @exclusivity(unchecked) private var maskBase = 0
    @exclusivity(unchecked) private var awaitingByteOrderMark = true
    /// Whether the end of the input has been seen.
    @exclusivity(unchecked) private(set) var inputEnded = false
    /// The number of lines delivered so far.
    @exclusivity(unchecked) private(set) var lineCount = 0

    let delimiter: UInt8
    let maxLineLength: Int
    private let dropsCarriageReturn: Bool
    private let sourceName: String
    /// Whether an overlong line is skipped (delivered empty, with its length) instead of thrown.
    private var skipsOverlongLines: Bool { skippedLineLimit != nil }
    /// The longest line skipped; a longer one throws as soon as it passes this length.
    private let skippedLineLimit: Int?
    /// Bytes of the current line already dropped because it is overlong; 0 while no line is being skipped.
    @exclusivity(unchecked) private var skipped = 0

    /// Reads land on this alignment in the buffer.
    static let alignment = 64

    init(chunkSize: Int, maxLineLength: Int, delimiter: UInt8, sourceName: String, skippedLineLimit: Int? = nil) {
        self.delimiter = delimiter
        self.maxLineLength = maxLineLength
        self.skippedLineLimit = skippedLineLimit
        self.dropsCarriageReturn = delimiter == UInt8(ascii: "\n")
        self.sourceName = sourceName
        capacity = 2 * chunkSize + 2 * Self.alignment
        storage = .allocate(byteCount: capacity, alignment: Self.alignment)
    }

    deinit { storage.deallocate() }

    /// The buffer's size in bytes (for tests that memory stays bounded).
    var bufferCapacity: Int { capacity }

    /// Whether `count` bytes starting at `address` lie inside the buffer (for tests of `Line.readablePadding`).
    func bufferContains(_ address: UnsafeRawPointer, count: Int) -> Bool {
        address >= UnsafeRawPointer(storage) && address + count <= UnsafeRawPointer(storage + capacity)
    }

    /// Room for `count` more bytes at the end of the buffer, moving the remainder to the front or
    /// growing the buffer when needed. Write into it, then call ``commit(_:)``.
    func writableWindow(count: Int) -> UnsafeMutableRawBufferPointer {
        // Keep readable bytes past every window: the mask scan reads whole 64-byte blocks, and every
        // line promises `Line.readablePadding` readable bytes after its end.
        let needed = count + max(Self.alignment, Line.readablePadding)
        if capacity - end < needed && start > 0 {
            // Move the remainder so that it ends on a 64-byte boundary: the next read then lands
            // aligned, which the kernel copies faster.
            let remainder = end - start
            let offset = (Self.alignment - remainder % Self.alignment) % Self.alignment
            if remainder > 0 && start != offset { memmove(storage + offset, storage + start, remainder) }
            scanned += offset - start
            maskBase += offset - start
            end = offset + remainder
            start = offset
        }
        if capacity - end < needed {
            let newCapacity = max(capacity * 2, end + needed)
            let grown = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: Self.alignment)
            grown.copyMemory(from: storage, byteCount: end)
            storage.deallocate()
            storage = grown
            capacity = newCapacity
        }
        return UnsafeMutableRawBufferPointer(start: storage + end, count: count)
    }

    /// Marks `count` bytes written into the last window as input.
    func commit(_ count: Int) {
        end += count
    }

    /// Copies bytes into the buffer (the push path).
    func append(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        let window = writableWindow(count: bytes.count)
        window.baseAddress.map { $0.copyMemory(from: base, byteCount: bytes.count) }
        commit(bytes.count)
    }

    /// Records that no more input will come: the unterminated tail becomes the last line.
    func endInput() {
        inputEnded = true
    }

    /// The next complete line in the buffer, or `nil` when more input is needed (or, once the
    /// input has ended, when every line was delivered).
    ///
    /// The returned line's bytes stay valid until the next call on this splitter.
    /// - Throws: ``ReaderError/lineTooLong(source:lineNumber:limit:)``.
    @inline(__always)
    func nextLine() throws -> Line? {
        if awaitingByteOrderMark {
            guard skipByteOrderMark() else { return nil }
        }
        if mask == 0 { scanMore() }
        if mask != 0 {
            let terminator = maskBase + mask.trailingZeroBitCount
            mask &= mask &- 1
            let line = try makeLine(upTo: terminator)
            start = terminator + 1
            return line
        }
        if inputEnded {
            guard start < end || skipped > 0 else { return nil }
            let line = try makeLine(upTo: end)
            start = end
            return line
        }
        // Allow one extra byte: a `\r` waiting for its `\n`.
        if end - start > maxLineLength + (dropsCarriageReturn ? 1 : 0) {
            guard let skippedLineLimit else {
                throw ReaderError.lineTooLong(source: sourceName, lineNumber: lineCount + 1, limit: maxLineLength)
            }
            // Drop what the line holds so far (keeping a last `\r`, which may end it), then go on reading.
            let kept = dropsCarriageReturn && storage.load(fromByteOffset: end - 1, as: UInt8.self) == 0x0D ? 1 : 0
            skipped += end - kept - start
            start = end - kept
            if skipped > skippedLineLimit {
                throw ReaderError.lineTooLong(source: sourceName, lineNumber: lineCount + 1, limit: skippedLineLimit)
            }
        }
        return nil
    }

    /// Scans 64-byte blocks from `scanned` until one holds a delimiter or the data ends.
    @inline(__always)
    private func scanMore() {
        let delimiter = self.delimiter
        while scanned < end {
            let count = min(64, end - scanned)
            var found = CLineScan_mask64(storage.assumingMemoryBound(to: UInt8.self) + scanned, delimiter)
            if count < 64 { found &= (1 << UInt64(count)) &- 1 }
            maskBase = scanned
            scanned += count
            if found != 0 {
                mask = found
                return
            }
        }
    }

    @inline(__always)
    private func makeLine(upTo terminator: Int) throws -> Line {
        var lineEnd = terminator
        if dropsCarriageReturn && lineEnd > start && storage.load(fromByteOffset: lineEnd - 1, as: UInt8.self) == 0x0D {
            lineEnd -= 1
        }
        guard lineEnd - start <= maxLineLength && skipped == 0 else { return try overlongLine(length: skipped + lineEnd - start) }
        lineCount += 1
        return Line(number: lineCount, bytes: UnsafeRawBufferPointer(start: storage + start, count: lineEnd - start))
    }

    /// A line over the limit: thrown, or delivered empty with its length when overlong lines are skipped.
    @inline(never)
    private func overlongLine(length: Int) throws -> Line {
        guard skipsOverlongLines else {
            throw ReaderError.lineTooLong(source: sourceName, lineNumber: lineCount + 1, limit: maxLineLength)
        }
        skipped = 0
        lineCount += 1
        return Line(number: lineCount, bytes: UnsafeRawBufferPointer(start: storage + start, count: 0), overlongLength: length)
    }

    /// Drops a UTF-8 byte-order mark at the very start of the input.
    ///
    /// - Returns: `false` while too few bytes have arrived to decide.
    private func skipByteOrderMark() -> Bool {
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        let available = end - start
        let compared = min(available, 3)
        for index in 0 ..< compared where storage.load(fromByteOffset: start + index, as: UInt8.self) != mark[index] {
            awaitingByteOrderMark = false
            return true
        }
        if compared == 3 {
            start += 3
            scanned = max(scanned, start)
            awaitingByteOrderMark = false
            return true
        }
        if inputEnded {
            awaitingByteOrderMark = false
            return true
        }
        return false
    }
}
