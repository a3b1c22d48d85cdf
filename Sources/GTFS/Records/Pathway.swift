/// A row of `pathways.txt`: a walkway, stairs, escalator, elevator or gate linking two locations of a station.
public struct Pathway: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.pathways

    enum Column: Int {
        case pathwayID, fromStopID, toStopID, pathwayMode, isBidirectional, length, traversalTime, stairCount
        case maxSlope, minWidth, signpostedAs, reversedSignpostedAs
    }

    /// The columns of the reference, in order.
    public static let columns: [ColumnSpec] = [
        .required("pathway_id"), .required("from_stop_id"), .required("to_stop_id"), .required("pathway_mode"),
        .required("is_bidirectional"), .optional("length"), .optional("traversal_time"), .optional("stair_count"),
        .optional("max_slope"), .optional("min_width"), .optional("signposted_as"), .optional("reversed_signposted_as"),
    ]

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
    /// - Throws: ``GTFSError`` for an invalid value or a broken rule.
    public init(row: Row) throws {
        typealias C = Column
        pathwayID = try row.requiredID(C.pathwayID.rawValue)
        fromStopID = try row.requiredID(C.fromStopID.rawValue)
        toStopID = try row.requiredID(C.toStopID.rawValue)
        pathwayMode = try row.requiredEnumeration(C.pathwayMode.rawValue)
        isBidirectional = try row.requiredZeroOrOne(C.isBidirectional.rawValue)
        length = try row.nonNegativeDouble(C.length.rawValue)
        traversalTime = try row.positiveInt(C.traversalTime.rawValue)
        stairCount = try row.int(C.stairCount.rawValue)
        if stairCount == 0 { throw row.error(C.stairCount.rawValue, "is not a non-zero integer") }
        maxSlope = try row.double(C.maxSlope.rawValue) ?? 0
        minWidth = try row.positiveDouble(C.minWidth.rawValue)
        signpostedAs = row.text(C.signpostedAs.rawValue)
        reversedSignpostedAs = row.text(C.reversedSignpostedAs.rawValue)

        if case .exitGate = pathwayMode, isBidirectional {
            throw row.ruleError(C.isBidirectional.rawValue, "must be 0 for an exit gate (pathway_mode 7)")
        }
    }
}
