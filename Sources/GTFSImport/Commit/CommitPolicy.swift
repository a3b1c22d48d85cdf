import GRDB

/// When an import's writes become visible: the transactions around an ``ImportWriter``'s load.
///
/// - ``AtomicCommit``: one transaction; readers see the old feed until the new one is complete, and any
///   failure leaves the database as it was. A first import into a new file is this policy on a file built
///   aside (see ``NewDatabaseFile``), placed after the commit.
/// - ``BatchedCommit``: a commit every N rows, so a live view sees rows arrive.
protocol CommitPolicy {
    /// Runs the writer's load to its end inside the policy's transactions.
    ///
    /// - Returns: whether anything was committed (an incremental import that found no difference writes
    ///   nothing).
    /// - Throws: what the load throws; the policy's rollback has happened.
    func run(_ db: Database, _ writer: inout ImportWriter, _ summary: inout ImportSummary) throws -> Bool
}
