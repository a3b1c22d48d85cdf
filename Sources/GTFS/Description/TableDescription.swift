/// A GTFS file's fields and key, without the record type: what code that handles every table the same way
/// (a store's schema, its inserts, its diffs) reads.
///
/// ```swift
/// let table = GTFSFile.stopTimes.table
/// table.fields.map(\.name)        // ["trip_id", "arrival_time", …]
/// table.keyFields.map(\.name)     // ["trip_id", "stop_sequence"]
/// ```
public struct TableDescription: Sendable, Hashable {
    /// The file.
    public let file: GTFSFile
    /// Its fields, in reference order.
    public let fields: [FieldSpec]
    /// The positions in ``fields`` of the key, in key order; empty when rows have no key.
    public let key: [Int]

    /// A description of `file` with `fields` and `key` (positions in `fields`).
    init(file: GTFSFile, fields: [FieldSpec], key: [Int]) {
        (self.file, self.fields, self.key) = (file, fields, key)
    }

    /// The key's fields, in key order.
    public var keyFields: [FieldSpec] { key.map { fields[$0] } }

    /// The field that groups rows when the key has several fields and starts with the first field, all of
    /// them always present: a trip's stop times, a shape's points, a service's dates. Rows with equal keys
    /// are then always in the same group.
    public var groupField: FieldSpec? {
        guard key.count >= 2, key.first == 0, keyFields.allSatisfy({ !$0.isNullable }) else { return nil }
        return fields[0]
    }
}
