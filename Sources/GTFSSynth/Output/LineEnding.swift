/// The bytes that end every line of every file.
package enum LineEnding: Sendable, CaseIterable {
    /// `\n`.
    case lf
    /// `\r\n`, as many agencies' exports (and RFC 4180) write.
    case crlf
}
