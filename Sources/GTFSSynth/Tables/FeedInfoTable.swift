import GTFS

/// `feed_info.txt`: one row naming the generator, the validity and the scale and seed as the version.
struct FeedInfoTable: FeedTable {
    let model: FeedModel
    typealias Record = FeedInfo
    let fields: [FeedInfo.Field] = [
        .feedPublisherName, .feedPublisherURL, .feedLang, .defaultLang, .feedStartDate, .feedEndDate, .feedVersion,
        .feedContactEmail, .feedContactURL,
    ]

    func writeRows(to out: RowBuffer) throws {
        out.text("gtfs-synth (synthetic VBB-style feed)")
        out.comma()
        out.ascii("https://example.org/gtfs-synth")
        out.comma()
        out.ascii("de")
        out.comma()
        out.ascii("de")
        out.comma()
        out.date(dayNumber: ServicePlan.feedStart)
        out.comma()
        out.date(dayNumber: ServicePlan.feedEnd)
        out.comma()
        out.text("scale \(model.scale), seed \(model.seed)")
        out.comma()
        out.ascii("gtfs-synth@example.org")
        out.comma()
        out.ascii("https://example.org/gtfs-synth/contact")
        try out.endRow()
    }
}
