import GTFS

/// `calendar.txt`: one row per service except the date-only ones; listed-day services have all
/// weekdays 0, as VBB writes them.
struct CalendarTable: FeedTable {
    let model: FeedModel
    typealias Record = ServiceCalendar
    let fields: [ServiceCalendar.Field] = [
        .serviceID, .monday, .tuesday, .wednesday, .thursday, .friday, .saturday, .sunday, .startDate, .endDate,
    ]

    func writeRows(to out: RowBuffer) throws {
        for index in 0 ..< model.size.services {
            let service = ServicePlan(index: index, seed: model.seed)
            if case .datesOnly = service.style { continue }
            out.int(index + 1)
            for weekday in 0 ..< 7 {
                out.comma()
                out.byte(service.mask >> weekday & 1 == 1 ? 0x31 : 0x30)
            }
            out.comma()
            out.date(dayNumber: service.startDay)
            out.comma()
            out.date(dayNumber: service.endDay)
            try out.endRow()
        }
    }
}
