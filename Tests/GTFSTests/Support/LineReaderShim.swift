import LineReader

/// Makes readers over test text.
enum LineReaderShim {
    static func reader(_ text: String, chunkSize: Int = 4096) throws -> Reader {
        try Reader(bytes: Array(text.utf8), options: .init(chunkSize: chunkSize))
    }
}
