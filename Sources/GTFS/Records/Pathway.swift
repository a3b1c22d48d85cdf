/// A row of `pathways.txt`: a walkway, stairs, escalator, elevator or gate linking two locations of a station.
public struct Pathway: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.pathways

    /// The fields of `pathways.txt`, in the order of the reference: name, type and presence of each.
    public enum Field: Int, GTFSField {
        /// A column of `pathways.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case pathwayID, fromStopID, toStopID, pathwayMode, isBidirectional, length, traversalTime, stairCount
        /// A column of `pathways.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case maxSlope, minWidth, signpostedAs, reversedSignpostedAs

        /// The field as the reference describes it.
        public var spec: FieldSpec {
            switch self {
            case .pathwayID: FieldSpec("pathway_id", .id, .required)
            case .fromStopID: FieldSpec("from_stop_id", .id, .required)
            case .toStopID: FieldSpec("to_stop_id", .id, .required)
            case .pathwayMode: FieldSpec("pathway_mode", .enumeration, .required)
            case .isBidirectional: FieldSpec("is_bidirectional", .boolean, .required)
            case .length: FieldSpec("length", .decimal)
            case .traversalTime: FieldSpec("traversal_time", .integer)
            case .stairCount: FieldSpec("stair_count", .integer)
            case .maxSlope: FieldSpec("max_slope", .decimal, .defaulted)
            case .minWidth: FieldSpec("min_width", .decimal)
            case .signpostedAs: FieldSpec("signposted_as", .text)
            case .reversedSignpostedAs: FieldSpec("reversed_signposted_as", .text)
            }
        }

        /// The key: `pathway_id`.
        public static let key: [Field] = [.pathwayID]
    }


    /// `pathway_id`.
    public var pathwayID: GTFSID
    /// `from_stop_id`: where the pathway starts.
    public var fromStopID: GTFSID
    /// `to_stop_id`: where the pathway ends.
    public var toStopID: GTFSID
    /// `pathway_mode`.
    public var pathwayMode: PathwayMode
    /// `is_bidirectional`: `1` (true) when the pathway may be used both ways, `0` (false) from → to only.
    public var isBidirectional: Bool
    /// `length`: metres.
    public var length: Double?
    /// `traversal_time`: seconds, on average.
    public var traversalTime: Int?
    /// `stair_count`: never 0; positive going up from → to, negative going down.
    public var stairCount: Int?
    /// `max_slope`: the ratio, positive going up; empty reads as 0 (no slope).
    public var maxSlope: Double
    /// `min_width`: metres.
    public var minWidth: Double?
    /// `signposted_as`: the text of the signs riders follow.
    public var signpostedAs: String?
    /// `reversed_signposted_as`: the sign text the other way.
    public var reversedSignpostedAs: String?

    /// Decodes a pathway and checks that an exit gate is one-way.
    /// - Parameter row: one row of `pathways.txt`.
    /// - Throws: ``GTFSError`` for an invalid value or a broken rule.
    public init(row: CSVRow<Field>) throws {
        pathwayID = try row.requiredID(.pathwayID)
        fromStopID = try row.requiredID(.fromStopID)
        toStopID = try row.requiredID(.toStopID)
        pathwayMode = try row.requiredEnumeration(.pathwayMode)
        isBidirectional = try row.requiredZeroOrOne(.isBidirectional)
        length = try row.nonNegativeDouble(.length)
        traversalTime = try row.positiveInt(.traversalTime)
        stairCount = try row.int(.stairCount)
        if stairCount == 0 { throw row.error(.stairCount, "is not a non-zero integer") }
        maxSlope = try row.double(.maxSlope) ?? 0
        minWidth = try row.positiveDouble(.minWidth)
        signpostedAs = row.text(.signpostedAs)
        reversedSignpostedAs = row.text(.reversedSignpostedAs)

        if case .exitGate = pathwayMode, isBidirectional {
            throw row.ruleError(.isBidirectional, "must be 0 for an exit gate (pathway_mode 7)")
        }
    }
}

extension Pathway {
    /// Writes one value per field, in ``Field`` order, in their primitive form (see ``FieldSink``).
    /// - Parameter sink: receives the values.
    public func write<Sink: FieldSink>(to sink: inout Sink) {
        sink.write(pathwayID)
        sink.write(fromStopID)
        sink.write(toStopID)
        sink.write(pathwayMode)
        sink.write(isBidirectional)
        sink.write(length)
        sink.write(traversalTime)
        sink.write(stairCount)
        sink.write(maxSlope)
        sink.write(minWidth)
        sink.write(signpostedAs)
        sink.write(reversedSignpostedAs)
    }
}
