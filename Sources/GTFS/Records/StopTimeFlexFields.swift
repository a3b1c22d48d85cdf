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

    /// Whether every field is empty.
    @inline(__always)
    var isEmpty: Bool {
        locationGroupID == nil && locationID == nil && startPickupDropOffWindow == nil && endPickupDropOffWindow == nil
            && continuousPickup == nil && continuousDropOff == nil && pickupBookingRuleID == nil
            && dropOffBookingRuleID == nil
    }

    /// An immutable box for the fields: `nil` stands for all-empty, so equal records have equal boxes.
    final class Box: Hashable, Sendable {
        let fields: StopTimeFlexFields

        private init(_ fields: StopTimeFlexFields) {
            self.fields = fields
        }

        /// A box for `fields`, `nil` when they are all empty (checked before allocating: a failable
        /// class initialiser would allocate first).
        @inline(__always)
        static func make(_ fields: StopTimeFlexFields) -> Box? {
            fields.isEmpty ? nil : Box(fields)
        }

        static func == (lhs: Box, rhs: Box) -> Bool { lhs.fields == rhs.fields }

        func hash(into hasher: inout Hasher) { hasher.combine(fields) }
    }
}
