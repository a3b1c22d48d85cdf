import Foundation
import GRDBSQLite

/// Walks two SELECT statements that return rows in the same key order (the store's rows and the new
/// ones) side by side and classifies every key, like the merge step of a merge sort.
///
/// Both statements select the same columns; `keyPositions` name the key columns among them, in ORDER BY
/// order. Keys compare as SQLite orders them with the BINARY collation (NULL, then numbers, then text by
/// bytes, then blobs), so the walk agrees with the index order SQLite reads them in. Rows compare by
/// type and exact value, column by column.
struct MergeWalk {
    /// What one step of the walk found.
    enum Step {
        /// A key only the store holds (the old statement's current row).
        case onlyOld
        /// A key only the new version holds (the new statement's current row).
        case onlyNew
        /// A key both hold, with different values (the new statement's current row).
        case changed
        /// A key both hold with identical rows.
        case same
    }

    let old: RawStatement
    let new: RawStatement
    let keyPositions: [Int32]
    /// The leading columns that make up a row (key expressions may follow them).
    let columnCount: Int32

    /// Runs the walk to the end of both statements, calling `body` once per key (per row for equal keys),
    /// then resets both statements.
    ///
    /// - Parameter isCancelled: polled every 4,096 steps.
    /// - Throws: `CancellationError`, an SQLite error while stepping, or what `body` throws.
    func run(isCancelled: () -> Bool, _ body: (Step) throws -> Void) throws {
        defer {
            old.reset()
            new.reset()
        }
        var hasOld = try old.step()
        var hasNew = try new.step()
        var steps = 0
        while hasOld || hasNew {
            steps &+= 1
            if steps & 4095 == 0, isCancelled() { throw CancellationError() }
            let order = !hasOld ? 1 : !hasNew ? -1 : compareKeys()
            if order < 0 {
                try body(.onlyOld)
                hasOld = try old.step()
            } else if order > 0 {
                try body(.onlyNew)
                hasNew = try new.step()
            } else {
                try body(rowsAreEqual() ? .same : .changed)
                hasOld = try old.step()
                hasNew = try new.step()
            }
        }
    }

    /// The order of the current keys: negative when the old one comes first.
    private func compareKeys() -> Int {
        for position in keyPositions {
            let order = Self.compare(old, new, position)
            if order != 0 { return order }
        }
        return 0
    }

    /// Whether the current rows hold the same values, with the same types.
    private func rowsAreEqual() -> Bool {
        for column in 0 ..< columnCount where !Self.sameValue(old, new, column) { return false }
        return true
    }

    /// Whether column `column` of the current rows of `a` and `b` holds the same value, of the same type.
    static func sameValue(_ a: RawStatement, _ b: RawStatement, _ column: Int32) -> Bool {
        let type = a.type(column)
        guard type == b.type(column) else { return false }
        switch type {
        case SQLITE_NULL: return true
        case SQLITE_INTEGER: return a.integer(column) == b.integer(column)
        case SQLITE_FLOAT: return a.double(column).bitPattern == b.double(column).bitPattern
        default: return compareBytes(a, b, column, text: type == SQLITE_TEXT) == 0
        }
    }

    /// SQLite's order of two values of column `column` (BINARY collation).
    static func compare(_ a: RawStatement, _ b: RawStatement, _ column: Int32) -> Int {
        let typeA = a.type(column)
        let typeB = b.type(column)
        let rankA = rank(typeA)
        let rankB = rank(typeB)
        if rankA != rankB { return rankA < rankB ? -1 : 1 }
        switch rankA {
        case 0:
            return 0
        case 1:
            if typeA == SQLITE_INTEGER && typeB == SQLITE_INTEGER {
                let x = a.integer(column)
                let y = b.integer(column)
                return x < y ? -1 : x > y ? 1 : 0
            }
            let x = a.double(column)
            let y = b.double(column)
            return x < y ? -1 : x > y ? 1 : 0
        default:
            return compareBytes(a, b, column, text: typeA == SQLITE_TEXT)
        }
    }

    /// NULL < numbers < text < blobs.
    private static func rank(_ type: Int32) -> Int {
        switch type {
        case SQLITE_NULL: 0
        case SQLITE_INTEGER, SQLITE_FLOAT: 1
        case SQLITE_TEXT: 2
        default: 3
        }
    }

    /// Bytewise order, the shorter first on a common prefix.
    private static func compareBytes(_ a: RawStatement, _ b: RawStatement, _ column: Int32, text: Bool) -> Int {
        let bytesA = a.bytes(column, text: text)
        let bytesB = b.bytes(column, text: text)
        let common = min(bytesA.count, bytesB.count)
        if common > 0, let pointerA = bytesA.baseAddress, let pointerB = bytesB.baseAddress {
            let order = memcmp(pointerA, pointerB, common)
            if order != 0 { return order < 0 ? -1 : 1 }
        }
        return bytesA.count < bytesB.count ? -1 : bytesA.count > bytesB.count ? 1 : 0
    }
}
