/// The fields of a ``StopTime`` that nearly every timetable row leaves empty (GTFS-Flex locations and
/// windows, continuous stopping, booking rules), stored out of line so the common record stays small.
struct StopTimeFlexFields: Hashable, Sendable {
    var locationGroupID: GTFSID?
    var locationID: GTFSID?
    var startPickupDropOffWindow: GTFSTime?
    var endPickupDropOffWindow: GTFSTime?
    var continuousPickup: ContinuousStopping?
    var continuousDropOff: ContinuousStopping?
    var pickupBookingRuleID: GTFSID?
    var dropOffBookingRuleID: GTFSID?

    /// An immutable box for the fields: `nil` stands for all-empty, so equal records have equal boxes.
    final class Box: Hashable, Sendable {
        let fields: StopTimeFlexFields

        private init(_ fields: StopTimeFlexFields) {
            self.fields = fields
        }

        /// A box for these values, `nil` when all are empty (a timetable row): then nothing is built, not
        /// even the fields value (the path of every parsed row).
        @inline(__always)
        static func make(
            locationGroupID: GTFSID?, locationID: GTFSID?, startPickupDropOffWindow: GTFSTime?,
            endPickupDropOffWindow: GTFSTime?, continuousPickup: ContinuousStopping?,
            continuousDropOff: ContinuousStopping?, pickupBookingRuleID: GTFSID?, dropOffBookingRuleID: GTFSID?
        ) -> Box? {
            guard
                locationGroupID != nil || locationID != nil || startPickupDropOffWindow != nil
                    || endPickupDropOffWindow != nil || continuousPickup != nil || continuousDropOff != nil
                    || pickupBookingRuleID != nil || dropOffBookingRuleID != nil
            else { return nil }
            return Box(
                StopTimeFlexFields(
                    locationGroupID: locationGroupID, locationID: locationID,
                    startPickupDropOffWindow: startPickupDropOffWindow, endPickupDropOffWindow: endPickupDropOffWindow,
                    continuousPickup: continuousPickup, continuousDropOff: continuousDropOff,
                    pickupBookingRuleID: pickupBookingRuleID, dropOffBookingRuleID: dropOffBookingRuleID))
        }

        /// A box for `fields`, `nil` when they are all empty (equal to the empty value).
        static func make(_ fields: StopTimeFlexFields) -> Box? {
            fields == StopTimeFlexFields() ? nil : Box(fields)
        }

        static func == (lhs: Box, rhs: Box) -> Bool { lhs.fields == rhs.fields }

        func hash(into hasher: inout Hasher) { hasher.combine(fields) }
    }
}
