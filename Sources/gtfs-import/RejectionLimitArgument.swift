import ArgumentParser
import GTFSImport

/// `--max-rejected`: a count of rows (`1000`) or a share of a file's rows (`5%`).
struct RejectionLimitArgument: ExpressibleByArgument {
    let limit: ImportOptions.RejectionLimit

    init?(argument: String) {
        if argument.hasSuffix("%") {
            guard let percent = Double(argument.dropLast()), percent >= 0, percent <= 100 else { return nil }
            limit = .share(percent / 100)
        } else {
            guard let rows = Int(argument), rows >= 0 else { return nil }
            limit = .rows(rows)
        }
    }

    static var defaultCompletionKind: CompletionKind { .default }
}
