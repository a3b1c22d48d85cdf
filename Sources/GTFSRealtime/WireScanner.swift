import Foundation
import GTFS
import SwiftProtobuf
import Synchronization

// MARK: - The wire format

/// One field as the protobuf wire format frames it.
struct WireField {
    /// The field number.
    let number: UInt64
    /// The wire type: 0 varint, 1 fixed64, 2 length-delimited, 3 group, 5 fixed32.
    let wireType: UInt64
    /// The offset of its tag from the scanned bytes' first byte.
    let offset: Int
    /// The indices of a length-delimited field's content in the scanned `Data`.
    let payload: Range<Int>?
    /// A varint field's value.
    let varint: UInt64?
}

/// A framing error: where (from the first byte) and what.
struct WireError: Error {
    let offset: Int
    let reason: String
}

/// Walks the fields of protobuf bytes without decoding them: their number, wire type and extent. Every
/// length and varint is checked against the bytes left, so garbled input ends in a `WireError`, never in a
/// read past the end.
struct WireScanner {
    /// The largest field number protobuf allows (2^29 − 1).
    static let maxFieldNumber: UInt64 = (1 << 29) - 1
    /// How deeply groups may nest while skipped: what swift-protobuf allows messages.
    static let maxGroupDepth = 100

    private let data: Data
    private var index: Int

    init(_ data: Data) {
        self.data = data
        index = data.startIndex
    }

    /// The next field, its value skipped; `nil` at the end of the bytes.
    mutating func next() throws(WireError) -> WireField? {
        guard index < data.endIndex else { return nil }
        let start = index
        let (number, wireType) = try key()
        guard wireType != 4 else { throw WireError(offset: offset(start), reason: "end of group \(number) without its start") }
        let (payload, varint) = try skipValue(number: number, wireType: wireType, start: start, depth: 0)
        return WireField(number: number, wireType: wireType, offset: offset(start), payload: payload, varint: varint)
    }

    private func offset(_ position: Int) -> Int { position - data.startIndex }

    private mutating func key() throws(WireError) -> (number: UInt64, wireType: UInt64) {
        let start = index
        let key = try varint()
        let number = key >> 3
        guard number >= 1, number <= Self.maxFieldNumber else {
            throw WireError(offset: offset(start), reason: "field number \(number) is outside 1…\(Self.maxFieldNumber)")
        }
        return (number, key & 7)
    }

    /// Skips a field's value; returns a length-delimited field's content or a varint's value.
    private mutating func skipValue(
        number: UInt64, wireType: UInt64, start: Int, depth: Int
    ) throws(WireError) -> (payload: Range<Int>?, varint: UInt64?) {
        switch wireType {
        case 0:
            return (nil, try varint())
        case 1, 5:
            try skip(wireType == 1 ? 8 : 4, start: start)
        case 2:
            let length = try varint()
            let left = data.endIndex - index
            // Compared as UInt64 first: a declared length of 2^62 must not be turned into an Int and added.
            guard length <= UInt64(left) else {
                throw WireError(offset: offset(start), reason: "field \(number) declares \(length) bytes, only \(left) follow")
            }
            let payload = index ..< index + Int(length)
            index = payload.upperBound
            return (payload, nil)
        case 3:
            try skipGroup(number: number, start: start, depth: depth + 1)
        default:
            throw WireError(offset: offset(start), reason: "field \(number) has wire type \(wireType), which does not exist")
        }
        return (nil, nil)
    }

    private mutating func skip(_ count: Int, start: Int) throws(WireError) {
        guard data.endIndex - index >= count else { throw WireError(offset: offset(start), reason: "truncated field") }
        index += count
    }

    /// Skips the fields of a group up to its end tag (same number).
    private mutating func skipGroup(number: UInt64, start: Int, depth: Int) throws(WireError) {
        guard depth <= Self.maxGroupDepth else { throw WireError(offset: offset(start), reason: "groups nested too deep") }
        while true {
            guard index < data.endIndex else { throw WireError(offset: offset(start), reason: "group \(number) is not closed") }
            let fieldStart = index
            let (inner, wireType) = try key()
            if wireType == 4 {
                guard inner == number else {
                    throw WireError(offset: offset(fieldStart), reason: "group \(number) closed as group \(inner)")
                }
                return
            }
            _ = try skipValue(number: inner, wireType: wireType, start: fieldStart, depth: depth)
        }
    }

    /// A base-128 varint of at most 10 bytes whose value fits 64 bits.
    private mutating func varint() throws(WireError) -> UInt64 {
        let start = index
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard index < data.endIndex else { throw WireError(offset: offset(start), reason: "truncated varint") }
            let byte = data[index]
            index += 1
            // The tenth byte holds the 64th bit only: anything more is not a 64-bit varint.
            guard shift < 63 || byte <= 1 else { throw WireError(offset: offset(start), reason: "varint longer than 64 bits") }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }
}
