import Foundation

import Platform

/// Where `--changes FILE` writes, chosen by what FILE is, so that writing the changes never replaces a
/// device, a FIFO or a symbolic link with a regular file.
enum ChangeLogTarget: Sendable {
    /// Written in place as the changes come: standard output (`-`), a device, a FIFO or a socket, or a file
    /// this process already writes as its standard output or error (`/dev/stdout` redirected to a file).
    case stream(descriptor: Int32, closes: Bool)
    /// A regular file, or a name not taken yet: written under a temporary name next to it and renamed over
    /// it once the import has committed, so that a failed import leaves the old file. A symbolic link is
    /// followed: its target is replaced, the link stays.
    case file(path: String, temporary: String, descriptor: Int32)

    /// Opens the target `path` names.
    /// - Throws: a message naming the path when it cannot be opened or created.
    init(opening path: String) throws(ChangeLogError) {
        if path == "-" {
            self = .stream(descriptor: STDOUT_FILENO, closes: false)
            return
        }
        var status = stat()
        if stat(path, &status) == 0 {
            // Already open as standard output or error (`/dev/stdout` on a file, a pipe or a socket, which
            // cannot be opened again): written through that descriptor.
            if let standard = [STDOUT_FILENO, STDERR_FILENO].first(where: { System.isSameFile($0, status) }) {
                self = .stream(descriptor: standard, closes: false)
                return
            }
            if status.st_mode & S_IFMT != S_IFREG {
                let descriptor = open(path, O_WRONLY | O_CLOEXEC)
                guard descriptor >= 0 else { throw ChangeLogError("cannot open \(path): \(System.message(forErrno: errno))") }
                self = .stream(descriptor: descriptor, closes: true)
                return
            }
        }
        let final = try Self.finalTarget(of: path)
        let temporary = final + ".partial-" + String(UInt32.random(in: 0 ... .max), radix: 16)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ChangeLogError("cannot create \(temporary): \(System.message(forErrno: errno))") }
        // The replacement keeps the permissions of the file it replaces.
        if stat(final, &status) == 0 { _ = fchmod(descriptor, status.st_mode & 0o7777) }
        self = .file(path: final, temporary: temporary, descriptor: descriptor)
    }

    /// The descriptor the lines go to.
    var descriptor: Int32 {
        switch self {
        case .stream(let descriptor, _), .file(_, _, let descriptor): descriptor
        }
    }

    /// The path at the end of `path`'s chain of symbolic links (which may not exist yet).
    private static func finalTarget(of path: String) throws(ChangeLogError) -> String {
        let final = System.endOfLinks(path)
        var status = stat()
        // Still a link: a loop, or a chain too long to follow. Renaming over it would replace a link.
        if lstat(final, &status) == 0, status.st_mode & S_IFMT == S_IFLNK {
            throw ChangeLogError("cannot open \(path): \(System.message(forErrno: ELOOP))")
        }
        return final
    }
}
