/// A row of `transfers.txt`: how riders may connect between two stops, routes or trips.
public struct Transfer: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.transfers

    enum Column: Int {
        case fromStopID, toStopID, fromRouteID, toRouteID, fromTripID, toTripID, transferType, minTransferTime
    }

    /// The columns of the reference, in order.
    public static let columns: [ColumnSpec] = [
        .optional("from_stop_id"), .optional("to_stop_id"), .optional("from_route_id"), .optional("to_route_id"),
        .optional("from_trip_id"), .optional("to_trip_id"), .required("transfer_type"), .optional("min_transfer_time"),
    ]

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
    /// - Throws: ``GTFSError`` for an invalid value or a broken rule.
    public init(row: Row) throws {
        typealias C = Column
        fromStopID = row.id(C.fromStopID.rawValue)
        toStopID = row.id(C.toStopID.rawValue)
        fromRouteID = row.id(C.fromRouteID.rawValue)
        toRouteID = row.id(C.toRouteID.rawValue)
        fromTripID = row.id(C.fromTripID.rawValue)
        toTripID = row.id(C.toTripID.rawValue)
        transferType = try row.enumeration(C.transferType.rawValue) ?? .recommended
        minTransferTime = try row.nonNegativeInt(C.minTransferTime.rawValue)

        let typeIsEmpty = row.bytes(C.transferType.rawValue) == nil
        let type = transferType.code
        func missing(_ column: C) -> GTFSError {
            row.ruleError(column.rawValue, typeIsEmpty ? "is required when transfer_type is empty" : "is required for transfer_type \(type)")
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
