public import GTFS

extension StopTime: SQLiteInsertable {
    /// Binds one value per column, in the order of ``SQLiteInsertable/columnNames``.
    public func bind<Row: StoreRowWriter>(to row: inout Row) {
        row.bind(tripID)
        row.bind(arrivalTime)
        row.bind(departureTime)
        row.bind(stopID)
        row.bind(locationGroupID)
        row.bind(locationID)
        row.bind(stopSequence)
        row.bind(stopHeadsign)
        row.bind(startPickupDropOffWindow)
        row.bind(endPickupDropOffWindow)
        row.bind(pickupType)
        row.bind(dropOffType)
        row.bind(continuousPickup)
        row.bind(continuousDropOff)
        row.bind(shapeDistTraveled)
        row.bind(timepoint)
        row.bind(pickupBookingRuleID)
        row.bind(dropOffBookingRuleID)
    }
}
