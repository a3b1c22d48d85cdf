extension GTFSFile {
    /// The record type that decodes this file's rows.
    public var recordType: any GTFSRecord.Type {
        switch self {
        case .agency: Agency.self
        case .stops: Stop.self
        case .routes: Route.self
        case .trips: Trip.self
        case .stopTimes: StopTime.self
        case .calendar: Calendar.self
        case .calendarDates: CalendarDate.self
        case .fareAttributes: FareAttribute.self
        case .fareRules: FareRule.self
        case .timeframes: Timeframe.self
        case .riderCategories: RiderCategory.self
        case .fareMedia: FareMedia.self
        case .fareProducts: FareProduct.self
        case .fareLegRules: FareLegRule.self
        case .fareLegJoinRules: FareLegJoinRule.self
        case .fareTransferRules: FareTransferRule.self
        case .areas: Area.self
        case .stopAreas: StopArea.self
        case .networks: Network.self
        case .routeNetworks: RouteNetwork.self
        case .shapes: ShapePoint.self
        case .frequencies: Frequency.self
        case .transfers: Transfer.self
        case .pathways: Pathway.self
        case .levels: Level.self
        case .locationGroups: LocationGroup.self
        case .locationGroupStops: LocationGroupStop.self
        case .bookingRules: BookingRule.self
        case .translations: Translation.self
        case .feedInfo: FeedInfo.self
        case .attributions: Attribution.self
        }
    }
}
