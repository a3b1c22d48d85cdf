import GTFS

/// A 128-bit hash of one record's values in the store's representation, for the group digests of an
/// incremental import (see ``GroupDigest``).
///
/// Two records that the store would hold as the same row hash the same, on every machine and in every
/// run (fixed constants, no per-process seed). Each value is hashed with its SQLite type, so `5` and `5.0`
/// and `"5"` differ, and text with its length. Not a cryptographic hash: it detects changes between
/// versions of a feed, it does not defend against a feed built to collide.
///
/// ```swift
/// var hasher = RowHasher()
/// stopTime.write(to: &hasher)
/// let (a, b) = hasher.finish()
/// ```
struct RowHasher: FieldSink {
    private var a: UInt64 = 0x243F_6A88_85A3_08D3
    private var b: UInt64 = 0x1319_8A2E_0370_7344
    /// The values written so far.
    private(set) var count = 0
    /// The first value, when it is text (a table's group: `trip_id` of `stop_times`).
    private(set) var firstText: GTFSID?

    /// A hasher with nothing written.
    init() {}

    @inline(__always)
    private static func mum(_ x: UInt64, _ y: UInt64) -> UInt64 {
        let product = x.multipliedFullWidth(by: y)
        return product.high ^ product.low
    }

    @inline(__always)
    private mutating func mix(_ word: UInt64) {
        a = Self.mum(a ^ word, 0xA076_1D64_78BD_642F)
        b = Self.mum(b ^ word, 0xE703_7ED1_A0B4_28DB) &+ word
    }

    /// Hashes NULL.
    mutating func writeNull() {
        count += 1
        mix(0x8EBC_6AF0_9C88_C6E3)
    }

    /// Hashes TEXT: its length, then its UTF-8 bytes 8 at a time.
    mutating func writeText(_ bytes: UnsafeBufferPointer<UInt8>) {
        if count == 0 { firstText = GTFSID(utf8: UnsafeRawBufferPointer(bytes)) }
        count += 1
        mix(0x5899_65CC_7537_4CC3 ^ UInt64(bytes.count))
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset + 8 <= bytes.count {
            mix(UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)))
            offset += 8
        }
        if offset < bytes.count {
            var last: UInt64 = 0
            for index in offset ..< bytes.count { last |= UInt64(base[index]) << UInt64(8 * (index - offset)) }
            mix(last)
        }
    }

    /// Hashes an INTEGER.
    mutating func write(_ value: Int) {
        count += 1
        mix(0x1D8E_4E27_C47D_124F)
        mix(UInt64(bitPattern: Int64(value)))
    }

    /// Hashes a REAL by its bits.
    mutating func write(_ value: Double) {
        count += 1
        mix(0xC2B2_AE3D_27D4_EB4F)
        mix(value.bitPattern)
    }

    /// The hash of everything written, as two 64-bit halves.
    func finish() -> (UInt64, UInt64) {
        (Self.avalanche(a ^ UInt64(count)), Self.avalanche(b &+ 0x9E37_79B9_7F4A_7C15))
    }

    /// MurmurHash3's 64-bit finalizer.
    private static func avalanche(_ value: UInt64) -> UInt64 {
        var x = value
        x ^= x >> 33
        x &*= 0xFF51_AFD7_ED55_8CCD
        x ^= x >> 33
        x &*= 0xC4CE_B9FE_1A85_EC53
        x ^= x >> 33
        return x
    }
}
