// The one place that names the C library: every other file imports Platform instead, so that a new
// platform is one branch here, not one in every file.
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(Darwin)
@_exported import Darwin
#else
#error("Platform: no C library module for this platform")
#endif

/// C library calls whose names a Swift declaration in scope shadows (a method `read(into:)`, ArgumentParser's
/// `exit`, `FileManager`-style names), reachable without naming the library.
package enum System {
    /// `read(2)`.
    package static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(descriptor, buffer, count)
        #elseif canImport(Musl)
        Musl.read(descriptor, buffer, count)
        #else
        Darwin.read(descriptor, buffer, count)
        #endif
    }

    /// `write(2)`.
    package static func write(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(descriptor, buffer, count)
        #elseif canImport(Musl)
        Musl.write(descriptor, buffer, count)
        #else
        Darwin.write(descriptor, buffer, count)
        #endif
    }

    /// `link(2)`: gives `path` a second name, failing with `EEXIST` when that name exists.
    package static func link(_ path: String, _ newPath: String) -> Int32 {
        #if canImport(Glibc)
        Glibc.link(path, newPath)
        #elseif canImport(Musl)
        Musl.link(path, newPath)
        #else
        Darwin.link(path, newPath)
        #endif
    }

    /// `exit(3)`.
    package static func exit(_ status: Int32) -> Never {
        #if canImport(Glibc)
        Glibc.exit(status)
        #elseif canImport(Musl)
        Musl.exit(status)
        #else
        Darwin.exit(status)
        #endif
    }

    /// The C library's text for an `errno` value (`No such file or directory`).
    package static func message(forErrno code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
