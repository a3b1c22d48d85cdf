/// The order of a departure or arrival board, and the merge that keeps it: both stores read a board as
/// two queries, each ordered (and limited) in SQL, the timetabled trips and the runs of frequency-based
/// trips, and merge them as they are read.
package enum BoardOrder {
    /// Whether the board is of departures (ordered by the departure) or of arrivals.
    package enum Kind: Sendable {
        case departures, arrivals

        /// The time column the window applies to (both stores name it so).
        package var timeColumn: String { self == .departures ? "departure_time" : "arrival_time" }
        /// The column saying the stop time allows it.
        package var allowedColumn: String { self == .departures ? "pickup_type" : "drop_off_type" }
        /// A trip leaves every stop but its last, and arrives at every stop but its first: the stop times
        /// on the side this condition requires.
        package var onward: String { self == .departures ? ">" : "<" }
        /// The predictions' column of the instant.
        package var predictedColumn: String { self == .departures ? "departure" : "arrival" }
    }

    /// Whether `a` comes before `b`: the instant, then the trip (bytewise, as both stores order ids), the
    /// stop sequence and the service date.
    package static func precedes(_ kind: Kind, _ a: StopEvent, _ b: StopEvent) -> Bool {
        let (x, y) = kind == .departures ? (a.expectedDeparture, b.expectedDeparture) : (a.expectedArrival, b.expectedArrival)
        if x != y { return (x ?? .distantPast) < (y ?? .distantPast) }
        if a.tripID != b.tripID { return a.tripID.description.utf8.lexicographicallyPrecedes(b.tripID.description.utf8) }
        if a.stopSequence != b.stopSequence { return a.stopSequence < b.stopSequence }
        return a.serviceDate < b.serviceDate
    }

    /// Hands on the events of several sources, each in board order, in board order, at most `limit`.
    /// - Parameter sources: each source's next event, `nil` at its end.
    package static func merge(_ kind: Kind, _ sources: [() throws -> StopEvent?], limit: Int?, _ body: (StopEvent) throws -> Void) throws {
        var heads = try sources.map { try $0() }
        var remaining = limit ?? .max
        while remaining > 0 {
            var best: Int?
            for index in heads.indices {
                guard let event = heads[index] else { continue }
                if let current = best, let head = heads[current], !precedes(kind, event, head) { continue }
                best = index
            }
            guard let index = best, let event = heads[index] else { return }
            try body(event)
            heads[index] = try sources[index]()
            remaining -= 1
        }
    }
}
