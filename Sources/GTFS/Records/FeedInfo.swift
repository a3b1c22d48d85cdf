/// The row of `feed_info.txt`: who publishes the feed, its language, validity and version.
public struct FeedInfo: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.feedInfo

    enum Column: Int {
        case feedPublisherName, feedPublisherURL, feedLang, defaultLang, feedStartDate, feedEndDate, feedVersion
        case feedContactEmail, feedContactURL
    }

    /// The columns of the reference, in order.
    public static let columns: [ColumnSpec] = [
        .required("feed_publisher_name"), .required("feed_publisher_url"), .required("feed_lang"),
        .optional("default_lang"), .optional("feed_start_date"), .optional("feed_end_date"), .optional("feed_version"),
        .optional("feed_contact_email"), .optional("feed_contact_url"),
    ]

    /// `feed_publisher_name`.
    public var feedPublisherName: String
    /// `feed_publisher_url`.
    public var feedPublisherURL: String
    /// `feed_lang`: the language of the feed's text, or `mul` for several.
    public var feedLang: String
    /// `default_lang`: the language for riders whose language is unknown.
    public var defaultLang: String?
    /// `feed_start_date`: the first day the feed is complete and reliable for (recommended).
    public var feedStartDate: GTFSDate?
    /// `feed_end_date`: the last day the feed is complete and reliable for (recommended).
    public var feedEndDate: GTFSDate?
    /// `feed_version` (recommended).
    public var feedVersion: String?
    /// `feed_contact_email`: for questions about the data itself.
    public var feedContactEmail: String?
    /// `feed_contact_url`: for questions about the data itself.
    public var feedContactURL: String?

    /// Decodes the feed information.
    /// - Throws: ``GTFSError`` for an invalid value or a missing required one.
    public init(row: Row) throws {
        typealias C = Column
        feedPublisherName = try row.requiredText(C.feedPublisherName.rawValue)
        feedPublisherURL = try row.requiredURL(C.feedPublisherURL.rawValue)
        feedLang = try row.requiredLanguageCode(C.feedLang.rawValue)
        defaultLang = row.languageCode(C.defaultLang.rawValue)
        feedStartDate = try row.date(C.feedStartDate.rawValue)
        feedEndDate = try row.date(C.feedEndDate.rawValue)
        feedVersion = row.text(C.feedVersion.rawValue)
        feedContactEmail = row.email(C.feedContactEmail.rawValue)
        feedContactURL = row.url(C.feedContactURL.rawValue)
    }
}
