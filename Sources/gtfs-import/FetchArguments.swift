import ArgumentParser
import GTFSFetch

/// The options of fetching a feed from a URL, shared by `gtfs-import URL` and `sync`.
struct FetchArguments: ParsableArguments {
    @Option(
        name: .customLong("header"),
        help: ArgumentHelp("A request header for the feed's URL, 'Name: value' (repeatable; values are never shown).", valueName: "HEADER"))
    var headers: [String] = []

    @Option(name: .long, help: ArgumentHelp("The largest body downloaded: bytes, or with K, M, G (default 4G).", valueName: "SIZE"))
    var maxDownload: ByteSize = ByteSize(bytes: FetchOptions().maxDownload)

    @Option(name: .long, help: ArgumentHelp("The longest wait for a connection, in seconds (default 30).", valueName: "SECONDS"))
    var connectTimeout: Double = FetchOptions().connectTimeout / .seconds(1)

    @Option(
        name: .long, help: ArgumentHelp("The longest wait for the next bytes of an answer, in seconds (default 60).", valueName: "SECONDS"))
    var idleTimeout: Double = FetchOptions().idleTimeout / .seconds(1)

    @Option(name: .long, help: ArgumentHelp("Attempts after the first for errors that may pass (default 4).", valueName: "N"))
    var retries: Int = FetchOptions().retries

    @Option(name: .long, help: ArgumentHelp("A PEM file of certificate authorities trusted besides the system's.", valueName: "FILE"))
    var cacert: String?

    func validate() throws {
        for (flag, value) in [("--connect-timeout", connectTimeout), ("--idle-timeout", idleTimeout)] where !(value >= 0.001 && value <= 3600) {
            throw ValidationError("\(flag) must be 0.001 to 3600 seconds")
        }
        if !(0...20).contains(retries) { throw ValidationError("--retries must be 0 to 20, got \(retries)") }
        for header in headers {
            do {
                _ = try HTTPHeaderField(parsing: header)
            } catch {
                throw ValidationError("--header: \(error)")
            }
        }
    }

    /// The fetch options the arguments give (validated).
    var options: FetchOptions {
        var options = FetchOptions()
        options.headers = headers.compactMap { try? HTTPHeaderField(parsing: $0) }
        options.maxDownload = maxDownload.bytes
        options.connectTimeout = .milliseconds(Int((connectTimeout * 1000).rounded()))
        options.idleTimeout = .milliseconds(Int((idleTimeout * 1000).rounded()))
        options.retries = retries
        options.certificateAuthorities = cacert
        return options
    }
}

/// A size argument: `4294967296`, `500M`, `4G`, `64K` (binary multiples).
struct ByteSize: ExpressibleByArgument {
    let bytes: Int64

    init(bytes: Int64) { self.bytes = bytes }

    init?(argument: String) {
        let text = argument.uppercased().replacingOccurrences(of: "IB", with: "").replacingOccurrences(of: "B", with: "")
        let shifts: [Character: Int64] = ["K": 10, "M": 20, "G": 30, "T": 40]
        let shift = text.last.flatMap { shifts[$0] } ?? 0
        guard let number = Int64(shift == 0 ? text : String(text.dropLast())), number > 0, number <= Int64.max >> shift else { return nil }
        bytes = number << shift
    }

    var defaultValueDescription: String { bytes % (1 << 30) == 0 ? "\(bytes >> 30)G" : "\(bytes)" }
}
