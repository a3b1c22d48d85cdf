/// A row of `booking_rules.txt`: how and how far ahead a demand-responsive service must be booked.
public struct BookingRule: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.bookingRules

    enum Column: Int {
        case bookingRuleID, bookingType, priorNoticeDurationMin, priorNoticeDurationMax, priorNoticeLastDay
        case priorNoticeLastTime, priorNoticeStartDay, priorNoticeStartTime, priorNoticeServiceID, message
        case pickupMessage, dropOffMessage, phoneNumber, infoURL, bookingURL
    }

    /// The columns of the reference, in order.
    public static let columns: [ColumnSpec] = [
        .required("booking_rule_id"), .required("booking_type"), .optional("prior_notice_duration_min"),
        .optional("prior_notice_duration_max"), .optional("prior_notice_last_day"), .optional("prior_notice_last_time"),
        .optional("prior_notice_start_day"), .optional("prior_notice_start_time"), .optional("prior_notice_service_id"),
        .optional("message"), .optional("pickup_message"), .optional("drop_off_message"), .optional("phone_number"),
        .optional("info_url"), .optional("booking_url"),
    ]

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
    /// - Throws: ``GTFSError`` for an invalid value or a broken rule.
    public init(row: Row) throws {
        typealias C = Column
        bookingRuleID = try row.requiredID(C.bookingRuleID.rawValue)
        bookingType = try row.requiredEnumeration(C.bookingType.rawValue)
        priorNoticeDurationMin = try row.int(C.priorNoticeDurationMin.rawValue)
        priorNoticeDurationMax = try row.int(C.priorNoticeDurationMax.rawValue)
        priorNoticeLastDay = try row.int(C.priorNoticeLastDay.rawValue)
        priorNoticeLastTime = try row.time(C.priorNoticeLastTime.rawValue)
        priorNoticeStartDay = try row.int(C.priorNoticeStartDay.rawValue)
        priorNoticeStartTime = try row.time(C.priorNoticeStartTime.rawValue)
        priorNoticeServiceID = row.id(C.priorNoticeServiceID.rawValue)
        message = row.text(C.message.rawValue)
        pickupMessage = row.text(C.pickupMessage.rawValue)
        dropOffMessage = row.text(C.dropOffMessage.rawValue)
        phoneNumber = row.phoneNumber(C.phoneNumber.rawValue)
        infoURL = row.url(C.infoURL.rawValue)
        bookingURL = row.url(C.bookingURL.rawValue)

        let type = "booking_type \(bookingType.code)"
        switch bookingType {
        case .realTime:
            if priorNoticeDurationMin != nil { throw row.ruleError(C.priorNoticeDurationMin.rawValue, "is forbidden for \(type)") }
            if priorNoticeDurationMax != nil { throw row.ruleError(C.priorNoticeDurationMax.rawValue, "is forbidden for \(type)") }
            if priorNoticeLastDay != nil { throw row.ruleError(C.priorNoticeLastDay.rawValue, "is forbidden for \(type)") }
            if priorNoticeStartDay != nil { throw row.ruleError(C.priorNoticeStartDay.rawValue, "is forbidden for \(type)") }
        case .sameDay:
            if priorNoticeDurationMin == nil { throw row.ruleError(C.priorNoticeDurationMin.rawValue, "is required for \(type)") }
            if priorNoticeLastDay != nil { throw row.ruleError(C.priorNoticeLastDay.rawValue, "is forbidden for \(type)") }
            if priorNoticeStartDay != nil && priorNoticeDurationMax != nil {
                throw row.ruleError(C.priorNoticeStartDay.rawValue, "is forbidden for \(type) when prior_notice_duration_max is given")
            }
        case .priorDays:
            if priorNoticeDurationMin != nil { throw row.ruleError(C.priorNoticeDurationMin.rawValue, "is forbidden for \(type)") }
            if priorNoticeDurationMax != nil { throw row.ruleError(C.priorNoticeDurationMax.rawValue, "is forbidden for \(type)") }
            if priorNoticeLastDay == nil { throw row.ruleError(C.priorNoticeLastDay.rawValue, "is required for \(type)") }
        case .unknown:
            break
        }
        if priorNoticeLastDay != nil && priorNoticeLastTime == nil {
            throw row.ruleError(C.priorNoticeLastTime.rawValue, "is required when prior_notice_last_day is given")
        }
        if priorNoticeLastDay == nil && priorNoticeLastTime != nil {
            throw row.ruleError(C.priorNoticeLastTime.rawValue, "is forbidden when prior_notice_last_day is empty")
        }
        if priorNoticeStartDay != nil && priorNoticeStartTime == nil {
            throw row.ruleError(C.priorNoticeStartTime.rawValue, "is required when prior_notice_start_day is given")
        }
        if priorNoticeStartDay == nil && priorNoticeStartTime != nil {
            throw row.ruleError(C.priorNoticeStartTime.rawValue, "is forbidden when prior_notice_start_day is empty")
        }
        switch bookingType {
        case .realTime, .sameDay:
            if priorNoticeServiceID != nil { throw row.ruleError(C.priorNoticeServiceID.rawValue, "is forbidden for \(type)") }
        case .priorDays, .unknown:
            break
        }
    }
}
