import Foundation
import TestSupport

/// A size-limited tmpfs mounted on a fresh folder, for tests of a full disk; unmounted when it goes away.
final class Tmpfs {
    let folder: TemporaryFolder
    /// The mount point.
    let path: String

    /// Whether this machine lets the tests mount one (root with CAP_SYS_ADMIN, as CI is).
    static let canMount: Bool = (try? Tmpfs(kilobytes: 64)) != nil

    /// Mounts a tmpfs of `kilobytes`.
    /// - Throws: when mounting is refused.
    init(kilobytes: Int) throws {
        folder = try TemporaryFolder()
        path = folder.file("mnt")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", path]) == 0 else {
            throw CocoaError(.fileWriteNoPermission)
        }
    }

    deinit { _ = Self.run("/bin/umount", [path]) }

    /// A path inside the mount.
    func file(_ name: String) -> String { path + "/" + name }

    /// Fills the mount to its last byte with a file named `fill`.
    func fill() {
        guard FileManager.default.createFile(atPath: file("fill"), contents: nil),
            let handle = FileHandle(forWritingAtPath: file("fill"))
        else { return }
        defer { try? handle.close() }  // the disk is full: closing has nothing left to flush
        for size in [1 << 20, 1 << 12, 1] {
            let block = Data(count: size)
            while (try? handle.write(contentsOf: block)) != nil {}
        }
    }

    /// Makes the mount read-only.
    /// - Throws: when remounting is refused.
    func remountReadOnly() throws {
        guard Self.run("/bin/mount", ["-o", "remount,ro", path]) == 0 else { throw CocoaError(.fileWriteNoPermission) }
    }

    /// Bytes free in the mount.
    var freeBytes: Int64 {
        ((try? FileManager.default.attributesOfFileSystem(forPath: path)[.systemFreeSize]) as? NSNumber)?.int64Value ?? 0
    }

    private static func run(_ tool: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
