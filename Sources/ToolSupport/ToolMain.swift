package import ArgumentParser

import Platform

package extension ParsableCommand {
    /// Parses the command line and runs the command it names, as the tools' `main()` does: a usage error
    /// (an unknown option, a bad value) exits with status 2, as `diff` and `grep` do, where ArgumentParser's
    /// default is 64; a ``ToolFailure`` prints its line and exits with its status; `--help` and `--version`
    /// exit with 0, other errors with ArgumentParser's status.
    static func runAsTool() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let failure as ToolFailure {
            StandardError.line(failure.message)
            System.exit(failure.status)
        } catch {
            if exitCode(for: error) == .validationFailure {
                StandardError.write(fullMessage(for: error) + "\n")
                System.exit(2)
            }
            exit(withError: error)
        }
    }
}
