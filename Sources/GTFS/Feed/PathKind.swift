import Platform

/// What a path names, as a feed source cares: a directory, a regular file (which can be read twice and
/// seeked, as a zip needs), or a stream (a pipe, FIFO, socket or device, read once from its start).
enum PathKind: Equatable {
    case directory
    case regularFile
    case stream

    /// Looks at `path` (through symbolic links) without opening it.
    ///
    /// - Throws: ``GTFSError`` (`unreadable`) naming the path when nothing is there ("does not exist"), or
    ///   when its name exists but leads nowhere: a broken symbolic link or a loop of links. A feed folder
    ///   whose `shapes.txt` is such a link must fail, not import as a feed without shapes.
    init(_ path: String) throws {
        var status = stat()
        if stat(path, &status) == 0 {
            switch status.st_mode & S_IFMT {
            case S_IFDIR: self = .directory
            case S_IFREG: self = .regularFile
            default: self = .stream
            }
            return
        }
        let code = errno
        var link = stat()
        if lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK {
            let why = code == ELOOP ? "a loop of symbolic links" : "a broken symbolic link"
            throw GTFSError(.unreadable, file: path, message: "cannot open: \(why)")
        }
        if code == ENOENT || code == ENOTDIR { throw GTFSError(.unreadable, file: path, message: "does not exist") }
        throw GTFSError(.unreadable, file: path, message: "cannot open: \(System.message(forErrno: code))")
    }
}
