import Foundation

extension ToolRunner {
    /// How a tool run under ``measuringPeakMemory(_:_:)`` ended.
    public struct Measured: Sendable {
        /// The exit status, or 128 + the signal that ended it.
        public let status: Int32
        /// Its peak resident memory in bytes (the kernel's `ru_maxrss` of that one process).
        public let peakBytes: Int
    }

    /// Runs `tool` to its end, its output discarded, and reads its own peak memory from `wait4`, which no
    /// other process of the tests can inflate.
    ///
    /// - Throws: when the process cannot start.
    public static func measuringPeakMemory(_ tool: String, _ arguments: [String]) throws -> Measured {
        _ = ignoresBrokenPipes
        let path = productsDirectory.appendingPathComponent(tool).path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, path, &actions, nil, argv, environ)
        guard spawned == 0 else { throw CocoaError(.executableLoad) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(child, &status, 0, &usage) < 0 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift cannot call as macros.
        let exitStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        #if canImport(Darwin)
        let peak = Int(usage.ru_maxrss)  // bytes on Darwin
        #else
        let peak = Int(usage.ru_maxrss) * 1024  // kilobytes elsewhere
        #endif
        return Measured(status: exitStatus, peakBytes: peak)
    }
}
