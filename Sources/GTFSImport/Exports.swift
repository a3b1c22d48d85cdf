// A program that imports GTFSImport gets the store-neutral types its API speaks in (ImportOptions,
// ImportSummary, StopEvent, …) without naming the module that holds them.
@_exported public import GTFSStoreCore
