import Foundation
package import GTFS

/// Stop names as a search reads them, the same in both stores: words are runs of letters and digits
/// (everything else separates), compared without case and diacritics, each word of a search the
/// beginning of a word of the name. The matches of a search come in one order: stations, then stops
/// without a parent station, then the rest; shorter names (in characters, at most 255 counted) first;
/// ties by `stop_id`.
package enum StopNames {
    /// The words of `text` as a search reads them, not yet folded.
    package static func words(_ text: String) -> [Substring] {
        text.split { !($0.isLetter || $0.isNumber) }
    }

    /// The words of a search, refused beyond ``FeedStoreLimits/maxNameWords``.
    /// - Throws: ``StoreError/tooManyWords(count:limit:)``.
    package static func searchWords(_ text: String) throws(StoreError) -> [Substring] {
        let words = words(text)
        if words.count > FeedStoreLimits.maxNameWords { throw .tooManyWords(count: words.count, limit: FeedStoreLimits.maxNameWords) }
        return words
    }

    /// Text folded as both stores' name indexes hold it: lower case, the marks of decomposed letters
    /// removed (`Lübeck` → `lubeck`), and the letters that carry their mark inside (which Unicode does not
    /// decompose) written as their base letters, `ø` `o`, `æ` `ae`, `ß` `ss`, `ł` `l`, `đ` `d`, `œ` `oe`
    /// (`Hjørundhølen` → `hjorundholen`). Everything else stays, separators too.
    package static func folded(_ text: some StringProtocol) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in String(text).lowercased().decomposedStringWithCanonicalMapping.unicodeScalars
        where scalar.properties.generalCategory != .nonspacingMark {
            if let base = bases[scalar] { scalars.append(contentsOf: base.unicodeScalars) } else { scalars.append(scalar) }
        }
        return String(scalars)
    }

    /// The lower-case letters with a stroke, slash or ligature, and the base letters a search types for them.
    private static let bases: [Unicode.Scalar: String] = [
        "ø": "o", "æ": "ae", "ß": "ss", "ł": "l", "đ": "d", "œ": "oe", "ð": "d", "þ": "th", "ı": "i", "ħ": "h", "ŧ": "t",
    ]

    /// The kind of stop in the order of matches: 0 a station, 1 a stop without a parent station, 2 any other.
    package static func rank(of stop: Stop) -> Int {
        stop.locationType == .station ? 0 : stop.parentStation == nil ? 1 : 2
    }

    /// The length of a name as the order counts it: characters (Unicode scalars), at most 255.
    package static func length(_ name: String) -> Int { min(name.unicodeScalars.count, 255) }
}
