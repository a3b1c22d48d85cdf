/// A row of `booking_rules.txt`: how and how far ahead a demand-responsive service must be booked.
public struct BookingRule: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.bookingRules

    /// The fields of `booking_rules.txt`, in the order of the reference: name, type and presence of each.
    public enum Field: Int, GTFSField {
        /// A column of `booking_rules.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case bookingRuleID, bookingType, priorNoticeDurationMin, priorNoticeDurationMax, priorNoticeLastDay
        /// A column of `booking_rules.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case priorNoticeLastTime, priorNoticeStartDay, priorNoticeStartTime, priorNoticeServiceID, message
        /// A column of `booking_rules.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case pickupMessage, dropOffMessage, phoneNumber, infoURL, bookingURL

        /// The field as the reference describes it.
        public var spec: FieldSpec {
            switch self {
            case .bookingRuleID: FieldSpec("booking_rule_id", .id, .required)
            case .bookingType: FieldSpec("booking_type", .enumeration, .required)
            case .priorNoticeDurationMin: FieldSpec("prior_notice_duration_min", .integer, .conditionallyRequired)
            case .priorNoticeDurationMax: FieldSpec("prior_notice_duration_max", .integer)
            case .priorNoticeLastDay: FieldSpec("prior_notice_last_day", .integer, .conditionallyRequired)
            case .priorNoticeLastTime: FieldSpec("prior_notice_last_time", .time, .conditionallyRequired)
            case .priorNoticeStartDay: FieldSpec("prior_notice_start_day", .integer)
            case .priorNoticeStartTime: FieldSpec("prior_notice_start_time", .time, .conditionallyRequired)
            case .priorNoticeServiceID: FieldSpec("prior_notice_service_id", .id)
            case .message: FieldSpec("message", .text)
            case .pickupMessage: FieldSpec("pickup_message", .text)
            case .dropOffMessage: FieldSpec("drop_off_message", .text)
            case .phoneNumber: FieldSpec("phone_number", .text)
            case .infoURL: FieldSpec("info_url", .text)
            case .bookingURL: FieldSpec("booking_url", .text)
            }
        }

        /// The key: `booking_rule_id`.
        public static let key: [Field] = [.bookingRuleID]
    }


    /// `booking_rule_id`: unique among booking rules.
    public var bookingRuleID: GTFSID
    /// `booking_type`: real-time, same-day or prior-day booking.
    public var bookingType: BookingType
    /// `prior_notice_duration_min`: the minimum notice, in minutes; required for same-day booking
    /// (booking_type 1), forbidden otherwise.
    public var priorNoticeDurationMin: Int?
    /// `prior_notice_duration_max`: the maximum notice, in minutes; forbidden for booking_type 0 and 2.
    public var priorNoticeDurationMax: Int?
    /// `prior_notice_last_day`: how many days before travel booking closes; required for prior-day booking
    /// (booking_type 2), forbidden otherwise.
    public var priorNoticeLastDay: Int?
    /// `prior_notice_last_time`: the time booking closes on ``priorNoticeLastDay``; given exactly when it is.
    public var priorNoticeLastTime: GTFSTime?
    /// `prior_notice_start_day`: how many days before travel booking opens; forbidden for booking_type 0, and
    /// for booking_type 1 when ``priorNoticeDurationMax`` is given.
    public var priorNoticeStartDay: Int?
    /// `prior_notice_start_time`: the time booking opens on ``priorNoticeStartDay``; given exactly when it is.
    public var priorNoticeStartTime: GTFSTime?
    /// `prior_notice_service_id`: the service whose days count for the prior-notice days; forbidden unless
    /// booking_type is 2.
    public var priorNoticeServiceID: GTFSID?
    /// `message`: a message for riders using the service at a stop or location.
    public var message: String?
    /// `pickup_message`: like ``message``, for pickups only.
    public var pickupMessage: String?
    /// `drop_off_message`: like ``message``, for drop-offs only.
    public var dropOffMessage: String?
    /// `phone_number`: the number to call to book.
    public var phoneNumber: String?
    /// `info_url`: a page about the booking rule.
    public var infoURL: String?
    /// `booking_url`: a page (or app link) where riders book.
    public var bookingURL: String?

    /// Decodes a booking rule and checks which prior-notice fields the booking type requires or forbids.
    /// - Parameter row: one row of `booking_rules.txt`.
    /// - Throws: ``GTFSError`` for an invalid value or a broken rule.
    public init(row: CSVRow<Field>) throws {
        bookingRuleID = try row.requiredID(.bookingRuleID)
        bookingType = try row.requiredEnumeration(.bookingType)
        priorNoticeDurationMin = try row.int(.priorNoticeDurationMin)
        priorNoticeDurationMax = try row.int(.priorNoticeDurationMax)
        priorNoticeLastDay = try row.int(.priorNoticeLastDay)
        priorNoticeLastTime = try row.time(.priorNoticeLastTime)
        priorNoticeStartDay = try row.int(.priorNoticeStartDay)
        priorNoticeStartTime = try row.time(.priorNoticeStartTime)
        priorNoticeServiceID = row.id(.priorNoticeServiceID)
        message = row.text(.message)
        pickupMessage = row.text(.pickupMessage)
        dropOffMessage = row.text(.dropOffMessage)
        phoneNumber = row.phoneNumber(.phoneNumber)
        infoURL = row.url(.infoURL)
        bookingURL = row.url(.bookingURL)

        let type = "booking_type \(bookingType.code)"
        switch bookingType {
        case .realTime:
            if priorNoticeDurationMin != nil { throw row.ruleError(.priorNoticeDurationMin, "is forbidden for \(type)") }
            if priorNoticeDurationMax != nil { throw row.ruleError(.priorNoticeDurationMax, "is forbidden for \(type)") }
            if priorNoticeLastDay != nil { throw row.ruleError(.priorNoticeLastDay, "is forbidden for \(type)") }
            if priorNoticeStartDay != nil { throw row.ruleError(.priorNoticeStartDay, "is forbidden for \(type)") }
        case .sameDay:
            if priorNoticeDurationMin == nil { throw row.ruleError(.priorNoticeDurationMin, "is required for \(type)") }
            if priorNoticeLastDay != nil { throw row.ruleError(.priorNoticeLastDay, "is forbidden for \(type)") }
            if priorNoticeStartDay != nil && priorNoticeDurationMax != nil {
                throw row.ruleError(.priorNoticeStartDay, "is forbidden for \(type) when prior_notice_duration_max is given")
            }
        case .priorDays:
            if priorNoticeDurationMin != nil { throw row.ruleError(.priorNoticeDurationMin, "is forbidden for \(type)") }
            if priorNoticeDurationMax != nil { throw row.ruleError(.priorNoticeDurationMax, "is forbidden for \(type)") }
            if priorNoticeLastDay == nil { throw row.ruleError(.priorNoticeLastDay, "is required for \(type)") }
        case .unknown:
            break
        }
        if priorNoticeLastDay != nil && priorNoticeLastTime == nil {
            throw row.ruleError(.priorNoticeLastTime, "is required when prior_notice_last_day is given")
        }
        if priorNoticeLastDay == nil && priorNoticeLastTime != nil {
            throw row.ruleError(.priorNoticeLastTime, "is forbidden when prior_notice_last_day is empty")
        }
        if priorNoticeStartDay != nil && priorNoticeStartTime == nil {
            throw row.ruleError(.priorNoticeStartTime, "is required when prior_notice_start_day is given")
        }
        if priorNoticeStartDay == nil && priorNoticeStartTime != nil {
            throw row.ruleError(.priorNoticeStartTime, "is forbidden when prior_notice_start_day is empty")
        }
        switch bookingType {
        case .realTime, .sameDay:
            if priorNoticeServiceID != nil { throw row.ruleError(.priorNoticeServiceID, "is forbidden for \(type)") }
        case .priorDays, .unknown:
            break
        }
    }
}

extension BookingRule {
    /// Writes one value per field, in ``Field`` order, in their primitive form (see ``FieldSink``).
    /// - Parameter sink: receives the values.
    public func write<Sink: FieldSink>(to sink: inout Sink) {
        sink.write(bookingRuleID)
        sink.write(bookingType)
        sink.write(priorNoticeDurationMin)
        sink.write(priorNoticeDurationMax)
        sink.write(priorNoticeLastDay)
        sink.write(priorNoticeLastTime)
        sink.write(priorNoticeStartDay)
        sink.write(priorNoticeStartTime)
        sink.write(priorNoticeServiceID)
        sink.write(message)
        sink.write(pickupMessage)
        sink.write(dropOffMessage)
        sink.write(phoneNumber)
        sink.write(infoURL)
        sink.write(bookingURL)
    }
}
