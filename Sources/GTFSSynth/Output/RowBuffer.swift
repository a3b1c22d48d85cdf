import GTFS

/// The one reusable byte buffer every table is written through: fields are formatted by hand straight
/// into it (no `String` per field), and it is handed to the current file's sink whenever it passes
/// ``flushThreshold`` at the end of a row.
///
/// Appends never overflow: the buffer grows if a row outruns it (it never does in practice, rows being
/// far shorter than the slack above the threshold).
final class RowBuffer {
    /// The bytes that end a row.
    let lineEnding: LineEnding
    /// The size at which a finished row triggers a flush.
    let flushThreshold: Int
    /// Data rows of the current file (``header(_:)`` not counted).
    private(set) var rows = 0
    /// Bytes handed to the current file's sink.
    private(set) var bytesWritten: Int64 = 0

    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var count = 0
    private var sink: (any ByteSink)?

    /// Creates an empty buffer.
    init(lineEnding: LineEnding, flushThreshold: Int = 256 * 1024) {
        self.lineEnding = lineEnding
        self.flushThreshold = flushThreshold
        capacity = flushThreshold + 64 * 1024
        storage = .allocate(capacity: capacity)
    }

    deinit { storage.deallocate() }

    // MARK: Files

    /// Starts a file: later rows go to `sink`.
    func begin(_ sink: any ByteSink) {
        self.sink = sink
        count = 0
        rows = 0
        bytesWritten = 0
    }

    /// Writes the rest of the current file to its sink and returns its rows and bytes.
    func end() throws -> (rows: Int, bytes: Int64) {
        try flush()
        sink = nil
        return (rows, bytesWritten)
    }

    /// Writes the header line (not counted as a row).
    func header(_ columns: [String]) throws {
        for (index, column) in columns.enumerated() {
            if index > 0 { comma() }
            ascii(column)
        }
        try endRow()
        rows -= 1
    }

    /// Ends a row with the line ending; flushes when the buffer is past its threshold.
    @inline(__always)
    func endRow() throws {
        switch lineEnding {
        case .lf:
            byte(0x0A)
        case .crlf:
            let p = reserve(2)
            p[0] = 0x0D
            p[1] = 0x0A
            count += 2
        }
        rows += 1
        if count >= flushThreshold { try flush() }
    }

    private func flush() throws {
        guard count > 0 else { return }
        if let sink { try sink.write(UnsafeRawBufferPointer(start: storage, count: count)) }
        bytesWritten += Int64(count)
        count = 0
    }

    // MARK: Raw bytes

    /// Room for `n` more bytes; the caller stores them and adds `n` to `count`.
    @inline(__always)
    private func reserve(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        if count + n > capacity { grow(to: count + n) }
        return storage + count
    }

    private func grow(to needed: Int) {
        let larger = max(needed, capacity * 2)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.update(from: storage, count: count)
        storage.deallocate()
        storage = moved
        capacity = larger
    }

    /// One byte.
    @inline(__always)
    func byte(_ value: UInt8) {
        reserve(1).pointee = value
        count += 1
    }

    /// A field separator.
    @inline(__always)
    func comma() { byte(0x2C) }

    /// Bytes copied as they are (already CSV-safe).
    @inline(__always)
    func bytes(_ source: UnsafeRawBufferPointer) {
        guard let base = source.baseAddress, source.count > 0 else { return }
        UnsafeMutableRawPointer(reserve(source.count)).copyMemory(from: base, byteCount: source.count)
        count += source.count
    }

    /// The bytes of an array, copied as they are (already CSV-safe).
    func bytes(_ source: [UInt8]) {
        source.withUnsafeBytes { bytes($0) }
    }

    /// Text known to need no quoting (ids, codes, header names), copied as UTF-8.
    func ascii(_ text: String) {
        var text = text
        text.withUTF8 { bytes(UnsafeRawBufferPointer($0)) }
    }

    /// Text as a CSV field: quoted, with `"` doubled, when it holds a comma, a quote or a line break.
    func text(_ text: String) {
        var text = text
        text.withUTF8 { field(UnsafeRawBufferPointer($0)) }
    }

    /// UTF-8 bytes as a CSV field: quoted, with `"` doubled, when they hold a comma, a quote or a line break.
    func field(_ source: UnsafeRawBufferPointer) {
        let needsQuotes = source.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
        guard needsQuotes else { return bytes(source) }
        byte(0x22)
        for value in source {
            if value == 0x22 { byte(0x22) }
            byte(value)
        }
        byte(0x22)
    }

    // MARK: Numbers

    /// A decimal integer.
    @inline(__always)
    func int(_ value: Int) {
        var rest = value
        if rest < 0 {
            byte(0x2D)
            rest = 0 &- rest
        }
        var digits = 1
        var bound = 10
        while rest >= bound && digits < 19 {
            digits += 1
            bound &*= 10
        }
        let p = reserve(digits)
        var index = digits
        repeat {
            index -= 1
            p[index] = 0x30 &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        } while index > 0
        count += digits
    }

    /// Two digits, zero-padded (`value` in 0 ... 99).
    @inline(__always)
    private func twoDigits(_ p: UnsafeMutablePointer<UInt8>, _ value: Int) {
        p[0] = 0x30 &+ UInt8(truncatingIfNeeded: value / 10)
        p[1] = 0x30 &+ UInt8(truncatingIfNeeded: value % 10)
    }

    /// A coordinate given in millionths of a degree, with 6 decimals: `52520008` → `52.520008`.
    @inline(__always)
    func microdegrees(_ value: Int) {
        var rest = value
        if rest < 0 {
            byte(0x2D)
            rest = 0 &- rest
        }
        int(rest / 1_000_000)
        var fraction = rest % 1_000_000
        let p = reserve(7)
        p[0] = 0x2E
        var index = 7
        while index > 1 {
            index -= 1
            p[index] = 0x30 &+ UInt8(truncatingIfNeeded: fraction % 10)
            fraction /= 10
        }
        count += 7
    }

    /// A number given in tenths, with one decimal: `12345` → `1234.5`.
    @inline(__always)
    func tenths(_ value: Int) {
        int(value / 10)
        let p = reserve(2)
        p[0] = 0x2E
        p[1] = 0x30 &+ UInt8(truncatingIfNeeded: value % 10)
        count += 2
    }

    /// A GTFS time `HH:MM:SS` from seconds after the start of the service day (hours past 23 for trips
    /// after midnight: `25:13:00`).
    @inline(__always)
    func time(_ seconds: Int) {
        let hours = min(seconds / 3600, 99)
        let minutes = seconds / 60 % 60
        let p = reserve(8)
        twoDigits(p, hours)
        p[2] = 0x3A
        twoDigits(p + 3, minutes)
        p[5] = 0x3A
        twoDigits(p + 6, seconds % 60)
        count += 8
    }

    /// A GTFS date `YYYYMMDD` of a day number (days since 1970-01-01; the plans' are days of 2025).
    func date(dayNumber: Int) {
        let date = GTFSDate(daysSince1970: dayNumber)
        let p = reserve(8)
        twoDigits(p, (date?.year ?? 0) / 100)
        twoDigits(p + 2, (date?.year ?? 0) % 100)
        twoDigits(p + 4, date?.month ?? 0)
        twoDigits(p + 6, date?.day ?? 0)
        count += 8
    }
}
