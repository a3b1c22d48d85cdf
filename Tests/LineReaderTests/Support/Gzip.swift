import TestSupport

/// Compresses bytes as one gzip member, for tests.
func gzipped(_ input: [UInt8]) -> [UInt8] { Deflate.gzip(input) }
