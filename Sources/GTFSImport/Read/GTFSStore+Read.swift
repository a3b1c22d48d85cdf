import Foundation
import GRDB

extension GTFSStore {
    /// One read transaction of the read API. A read called from inside another of this store's reads on
    /// the same thread (from a board's body, say) joins it: same connection, same snapshot. GRDB refuses a
    /// second `read` there with a precondition failure, which would end the program.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        let key = "GTFSStore.read.\(UInt(bitPattern: ObjectIdentifier(self).hashValue))"
        if Thread.current.threadDictionary[key] != nil { return try pool.unsafeReentrantRead(body) }
        return try pool.read { db in
            let thread = Thread.current.threadDictionary
            thread[key] = true
            defer { thread.removeObject(forKey: key) }
            return try body(db)
        }
    }
}
