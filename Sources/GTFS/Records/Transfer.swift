/// A row of `transfers.txt`: how riders may connect between two stops, routes or trips.
public struct Transfer: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.transfers

    /// The fields of `transfers.txt`, in the order of the reference: name, type and presence of each.
    public enum Field: Int, GTFSField {
        /// A column of `transfers.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case fromStopID, toStopID, fromRouteID, toRouteID, fromTripID, toTripID, transferType, minTransferTime

        /// The field as the reference describes it.
        public var spec: FieldSpec {
            switch self {
            case .fromStopID: FieldSpec("from_stop_id", .id)
            case .toStopID: FieldSpec("to_stop_id", .id)
            case .fromRouteID: FieldSpec("from_route_id", .id)
            case .toRouteID: FieldSpec("to_route_id", .id)
            case .fromTripID: FieldSpec("from_trip_id", .id)
            case .toTripID: FieldSpec("to_trip_id", .id)
            case .transferType: FieldSpec("transfer_type", .enumeration, .requiredOrDefault)
            case .minTransferTime: FieldSpec("min_transfer_time", .integer)
            }
        }

        /// The key: `from_stop_id`, `to_stop_id`, `from_trip_id`, `to_trip_id`, `from_route_id`, `to_route_id`.
        public static let key: [Field] = [.fromStopID, .toStopID, .fromTripID, .toTripID, .fromRouteID, .toRouteID]
    }


    /// `from_stop_id`: required for transfer types 0–3 (and empty); optional for 4 and 5.
    public var fromStopID: GTFSID?
    /// `to_stop_id`: required for transfer types 0–3 (and empty); optional for 4 and 5.
    public var toStopID: GTFSID?
    /// `from_route_id`.
    public var fromRouteID: GTFSID?
    /// `to_route_id`.
    public var toRouteID: GTFSID?
    /// `from_trip_id`: required for in-seat transfer types 4 and 5.
    public var fromTripID: GTFSID?
    /// `to_trip_id`: required for in-seat transfer types 4 and 5.
    public var toTripID: GTFSID?
    /// `transfer_type`: the column is required, but an empty cell reads as ``TransferType/recommended``.
    public var transferType: TransferType
    /// `min_transfer_time`: seconds needed to transfer.
    public var minTransferTime: Int?

    /// Decodes a transfer and checks the conditionally required fields.
    /// - Parameter row: one row of `transfers.txt`.
    /// - Throws: ``GTFSError`` for an invalid value or a broken rule.
    public init(row: CSVRow<Field>) throws {
        fromStopID = row.id(.fromStopID)
        toStopID = row.id(.toStopID)
        fromRouteID = row.id(.fromRouteID)
        toRouteID = row.id(.toRouteID)
        fromTripID = row.id(.fromTripID)
        toTripID = row.id(.toTripID)
        transferType = try row.enumeration(.transferType) ?? .recommended
        minTransferTime = try row.nonNegativeInt(.minTransferTime)

        let typeIsEmpty = row.bytes(.transferType) == nil
        let type = transferType.code
        func missing(_ field: Field) -> GTFSError {
            row.ruleError(field, typeIsEmpty ? "is required when transfer_type is empty" : "is required for transfer_type \(type)")
        }
        switch transferType {
        case .recommended, .timed, .minimumTime, .notPossible:
            if fromStopID == nil { throw missing(.fromStopID) }
            if toStopID == nil { throw missing(.toStopID) }
        case .inSeat, .inSeatNotAllowed:
            if fromTripID == nil { throw missing(.fromTripID) }
            if toTripID == nil { throw missing(.toTripID) }
        case .unknown:
            break
        }
    }
}

extension Transfer {
    /// Writes one value per field, in ``Field`` order, in their primitive form (see ``FieldSink``).
    /// - Parameter sink: receives the values.
    public func write<Sink: FieldSink>(to sink: inout Sink) {
        sink.write(fromStopID)
        sink.write(toStopID)
        sink.write(fromRouteID)
        sink.write(toRouteID)
        sink.write(fromTripID)
        sink.write(toTripID)
        sink.write(transferType)
        sink.write(minTransferTime)
    }
}
