import GTFS

/// `calendar_dates.txt`: holidays and works removed from weekday services, listed days added to the
/// others; every date a real one of 2025, each at most once per service.
struct CalendarDatesTable: FeedTable {
    let model: FeedModel
    typealias Record = CalendarDate
    let fields: [CalendarDate.Field] = [.serviceID, .date, .exceptionType]

    func writeRows(to out: RowBuffer) throws {
        for index in 0 ..< model.size.services {
            let service = ServicePlan(index: index, seed: model.seed)
            for exception in service.exceptions {
                out.int(index + 1)
                out.comma()
                out.date(dayNumber: exception.day)
                out.comma()
                out.int(exception.type)
                try out.endRow()
            }
        }
    }
}
