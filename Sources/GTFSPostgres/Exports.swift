// A program that imports GTFSPostgres gets the store-neutral types its API speaks in (ImportOptions,
// ImportSummary, StoredFeed, …) without naming the module that holds them.
@_exported public import GTFSStoreCore
