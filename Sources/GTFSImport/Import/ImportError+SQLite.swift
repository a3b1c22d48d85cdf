public import GRDB

extension ImportError {
    /// SQLite's extended result code when SQLite failed the import (`ImportError.database(path:message:code:)`):
    /// `error.resultCode == .SQLITE_FULL` for a full disk.
    public var resultCode: ResultCode? { databaseCode.map { ResultCode(rawValue: $0) } }
}
