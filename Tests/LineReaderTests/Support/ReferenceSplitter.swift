/// The line rules written the obvious way, as the oracle for chunked reading.
enum ReferenceSplitter {
    /// Splits `input` per the documented rules: BOM dropped, `\n` ends a line, a `\r` before it
    /// (and at the very end) dropped, last unterminated line kept.
    static func lines(_ input: [UInt8], delimiter: UInt8 = 0x0A) -> [[UInt8]] {
        var bytes = input[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        var result: [[UInt8]] = []
        var current: [UInt8] = []
        for byte in bytes {
            if byte == delimiter {
                result.append(trimmed(current, delimiter: delimiter))
                current = []
            } else {
                current.append(byte)
            }
        }
        if !current.isEmpty { result.append(trimmed(current, delimiter: delimiter)) }
        return result
    }

    private static func trimmed(_ line: [UInt8], delimiter: UInt8) -> [UInt8] {
        if delimiter == 0x0A, line.last == 0x0D { return Array(line.dropLast()) }
        return line
    }
}
