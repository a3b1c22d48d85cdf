import GTFS

/// Every record of a feed, read with the package's own `FeedParser`, plus its summary.
struct ParsedFeed {
    let summary: FeedSummary
    let agencies: [Agency]
    let levels: [Level]
    let stops: [Stop]
    let routes: [Route]
    let calendars: [ServiceCalendar]
    let calendarDates: [CalendarDate]
    let shapePoints: [ShapePoint]
    let trips: [Trip]
    let stopTimes: [StopTime]
    let transfers: [Transfer]
    let feedInfo: [FeedInfo]

    /// Parses the feed at `path` (zip, directory or gzip directory).
    init(path: String) throws {
        let parser = FeedParser(source: try FeedSource(path: path))
        var collected = Records()
        summary = try parser.parse { batch in
            collected.add(batch)
        }
        agencies = collected.agencies
        levels = collected.levels
        stops = collected.stops
        routes = collected.routes
        calendars = collected.calendars
        calendarDates = collected.calendarDates
        shapePoints = collected.shapePoints
        trips = collected.trips
        stopTimes = collected.stopTimes
        transfers = collected.transfers
        feedInfo = collected.feedInfo
    }

}

/// The records of each table, as the parser delivers them.
private struct Records {
    var agencies: [Agency] = []
    var levels: [Level] = []
    var stops: [Stop] = []
    var routes: [Route] = []
    var calendars: [ServiceCalendar] = []
    var calendarDates: [CalendarDate] = []
    var shapePoints: [ShapePoint] = []
    var trips: [Trip] = []
    var stopTimes: [StopTime] = []
    var transfers: [Transfer] = []
    var feedInfo: [FeedInfo] = []

    mutating func add(_ batch: RecordBatch) {
        switch batch.file {
        case .agency: agencies += batch.records(as: Agency.self) ?? []
        case .levels: levels += batch.records(as: Level.self) ?? []
        case .stops: stops += batch.records(as: Stop.self) ?? []
        case .routes: routes += batch.records(as: Route.self) ?? []
        case .calendar: calendars += batch.records(as: ServiceCalendar.self) ?? []
        case .calendarDates: calendarDates += batch.records(as: CalendarDate.self) ?? []
        case .shapes: shapePoints += batch.records(as: ShapePoint.self) ?? []
        case .trips: trips += batch.records(as: Trip.self) ?? []
        case .stopTimes: stopTimes += batch.records(as: StopTime.self) ?? []
        case .transfers: transfers += batch.records(as: Transfer.self) ?? []
        case .feedInfo: feedInfo += batch.records(as: FeedInfo.self) ?? []
        default: break
        }
    }
}
