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
    }

    /// Whether `a` comes before `b`: the instant, then the trip (bytewise, as both stores order ids), the
    /// stop sequence and the service date.
    package static func precedes(_ kind: Kind, _ a: StopEvent, _ b: StopEvent) -> Bool {
        let (x, y) = kind == .departures ? (a.departure, b.departure) : (a.arrival, b.arrival)
        if x != y { return (x ?? .distantPast) < (y ?? .distantPast) }
        if a.tripID != b.tripID { return a.tripID.description.utf8.lexicographicallyPrecedes(b.tripID.description.utf8) }
        if a.stopSequence != b.stopSequence { return a.stopSequence < b.stopSequence }
        return a.serviceDate < b.serviceDate
    }

    /// Hands on the events of two sources, each in board order, in board order, at most `limit`.
    /// - Parameters:
    ///   - first: the next event of the first source, `nil` at its end.
    ///   - second: the same of the second.
    package static func merge(
        _ kind: Kind, _ first: () throws -> StopEvent?, _ second: () throws -> StopEvent?, limit: Int?, _ body: (StopEvent) throws -> Void
    ) throws {
        var left = try first()
        var right = try second()
        var remaining = limit ?? .max
        while remaining > 0 {
            let takesLeft: Bool
            switch (left, right) {
            case (nil, nil): return
            case (_?, nil): takesLeft = true
            case (nil, _?): takesLeft = false
            case (let a?, let b?): takesLeft = !precedes(kind, b, a)
            }
            if takesLeft, let a = left {
                try body(a)
                left = try first()
            } else if let b = right {
                try body(b)
                right = try second()
            }
            remaining -= 1
        }
    }
}
