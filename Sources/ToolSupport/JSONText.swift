package import Foundation

/// The `--json` output style of every tool.
package enum JSONText {
    /// `value` as pretty-printed JSON with sorted keys and unescaped slashes, so that equal values give
    /// equal text and a diff of two outputs shows what changed.
    package static func pretty(_ value: some Encodable) throws -> String {
        String(decoding: try encoder().encode(value), as: UTF8.self)
    }

    /// The encoder of ``pretty(_:)``, for a caller that encodes many values (a board's rows one by one).
    package static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
