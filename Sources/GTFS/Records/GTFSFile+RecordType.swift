/// Something done with a record type, chosen by file at run time but compiled per type.
///
/// ``GTFSFile/accept(_:)`` calls ``visit(_:)`` with the file's concrete record type, so generic code
/// reached through it is specialised for each type instead of running through an existential.
public protocol RecordTypeVisitor {
    /// What the visit gives.
    associatedtype Output
    /// What the visit may throw (`Never` when it cannot fail).
    associatedtype Failure: Error = any Error
    /// Does the work for one record type.
    ///
    /// - Parameter type: the record type, e.g. `Stop.self`.
    /// - Returns: the visit's result.
    /// - Throws: what the visit throws.
    func visit<R: GTFSRecord>(_ type: R.Type) throws(Failure) -> Output
}

extension GTFSFile {
    /// Calls `visitor` with the record type that decodes this file's rows.
    ///
    /// - Parameter visitor: the work to do with the record type.
    /// - Returns: what the visitor returns.
    ///
    /// - Throws: what the visitor throws.
    public func accept<V: RecordTypeVisitor>(_ visitor: V) throws(V.Failure) -> V.Output {
        switch self {
        case .agency: try visitor.visit(Agency.self)
        case .stops: try visitor.visit(Stop.self)
        case .routes: try visitor.visit(Route.self)
        case .trips: try visitor.visit(Trip.self)
        case .stopTimes: try visitor.visit(StopTime.self)
        case .calendar: try visitor.visit(ServiceCalendar.self)
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
}

extension GTFSFile {
    /// The description of the file's fields and key.
    public var table: TableDescription { accept(DescriptionVisitor()) }
}

/// Gives a record type's table description.
private struct DescriptionVisitor: RecordTypeVisitor {
    func visit<R: GTFSRecord>(_ type: R.Type) throws(Never) -> TableDescription { TableDescription(type) }
}
