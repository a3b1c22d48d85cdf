// A program that imports GTFSRealtime gets the realtime values its API speaks in (RealtimeMessage,
// RealtimeTripUpdate, RealtimeSummary, …) without naming the module that holds them.
@_exported public import GTFSStoreCore
