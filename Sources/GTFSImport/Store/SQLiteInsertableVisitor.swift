public import GTFS

/// Something done with an insertable record type, chosen by file at run time but compiled per type.
///
/// The insert-side twin of ``GTFS/RecordTypeVisitor``: ``GTFS/GTFSFile/acceptInsertable(_:)`` calls
/// ``visit(_:)`` with the file's concrete record type, so a ``TableInserter`` reached through it is
/// specialised for each type (no existential record in the hot path).
///
/// ```swift
/// struct Counter: SQLiteInsertableVisitor {
///     func visit<R: SQLiteInsertable>(_ type: R.Type) -> Int { R.columnNames.count }
/// }
/// GTFSFile.stops.acceptInsertable(Counter()) // 16
/// ```
public protocol SQLiteInsertableVisitor {
    /// What the visit gives.
    associatedtype Output
    /// What the visit may throw (`Never` when it cannot fail).
    associatedtype Failure: Error = any Error
    /// Does the work for one record type.
    func visit<R: SQLiteInsertable>(_ type: R.Type) throws(Failure) -> Output
}

extension GTFSFile {
    /// Calls `visitor` with the insertable record type of this file's rows.
    ///
    /// - Throws: what the visitor throws.
    public func acceptInsertable<V: SQLiteInsertableVisitor>(_ visitor: V) throws(V.Failure) -> V.Output {
        switch self {
        case .agency: try visitor.visit(Agency.self)
        case .stops: try visitor.visit(Stop.self)
        case .routes: try visitor.visit(Route.self)
        case .trips: try visitor.visit(Trip.self)
        case .stopTimes: try visitor.visit(StopTime.self)
        case .calendar: try visitor.visit(GTFS.Calendar.self)
        case .calendarDates: try visitor.visit(CalendarDate.self)
        case .fareAttributes: try visitor.visit(FareAttribute.self)
        case .fareRules: try visitor.visit(FareRule.self)
        case .timeframes: try visitor.visit(Timeframe.self)
        case .riderCategories: try visitor.visit(RiderCategory.self)
        case .fareMedia: try visitor.visit(FareMedia.self)
        case .fareProducts: try visitor.visit(FareProduct.self)
        case .fareLegRules: try visitor.visit(FareLegRule.self)
        case .fareLegJoinRules: try visitor.visit(FareLegJoinRule.self)
        case .fareTransferRules: try visitor.visit(FareTransferRule.self)
        case .areas: try visitor.visit(Area.self)
        case .stopAreas: try visitor.visit(StopArea.self)
        case .networks: try visitor.visit(Network.self)
        case .routeNetworks: try visitor.visit(RouteNetwork.self)
        case .shapes: try visitor.visit(ShapePoint.self)
        case .frequencies: try visitor.visit(Frequency.self)
        case .transfers: try visitor.visit(Transfer.self)
        case .pathways: try visitor.visit(Pathway.self)
        case .levels: try visitor.visit(Level.self)
        case .locationGroups: try visitor.visit(LocationGroup.self)
        case .locationGroupStops: try visitor.visit(LocationGroupStop.self)
        case .bookingRules: try visitor.visit(BookingRule.self)
        case .translations: try visitor.visit(Translation.self)
        case .feedInfo: try visitor.visit(FeedInfo.self)
        case .attributions: try visitor.visit(Attribution.self)
        }
    }

    /// The insertable record type of this file's rows.
    public var insertableType: any SQLiteInsertable.Type {
        acceptInsertable(InsertableMetatype())
    }
}

/// Gives the record type itself.
private struct InsertableMetatype: SQLiteInsertableVisitor {
    func visit<R: SQLiteInsertable>(_ type: R.Type) throws(Never) -> any SQLiteInsertable.Type { type }
}
