/// The row of `feed_info.txt`: who publishes the feed, its language, validity and version.
public struct FeedInfo: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.feedInfo

    /// The fields of `feed_info.txt`, in the order of the reference: name, type and presence of each.
    public enum Field: Int, GTFSField {
        /// A column of `feed_info.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case feedPublisherName, feedPublisherURL, feedLang, defaultLang, feedStartDate, feedEndDate, feedVersion
        /// A column of `feed_info.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case feedContactEmail, feedContactURL

        /// The field as the reference describes it.
        public var spec: FieldSpec {
            switch self {
            case .feedPublisherName: FieldSpec("feed_publisher_name", .text, .required)
            case .feedPublisherURL: FieldSpec("feed_publisher_url", .text, .required)
            case .feedLang: FieldSpec("feed_lang", .text, .required)
            case .defaultLang: FieldSpec("default_lang", .text)
            case .feedStartDate: FieldSpec("feed_start_date", .date)
            case .feedEndDate: FieldSpec("feed_end_date", .date)
            case .feedVersion: FieldSpec("feed_version", .text)
            case .feedContactEmail: FieldSpec("feed_contact_email", .text)
            case .feedContactURL: FieldSpec("feed_contact_url", .text)
            }
        }

        /// No key: rows are compared whole.
        public static let key: [Field] = []
    }


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
    /// - Parameter row: one row of `feed_info.txt`.
    /// - Throws: ``GTFSError`` for an invalid value or a missing required one.
    public init(row: CSVRow<Field>) throws {
        feedPublisherName = try row.requiredText(.feedPublisherName)
        feedPublisherURL = try row.requiredURL(.feedPublisherURL)
        feedLang = try row.requiredLanguageCode(.feedLang)
        defaultLang = row.languageCode(.defaultLang)
        feedStartDate = try row.date(.feedStartDate)
        feedEndDate = try row.date(.feedEndDate)
        feedVersion = row.text(.feedVersion)
        feedContactEmail = row.email(.feedContactEmail)
        feedContactURL = row.url(.feedContactURL)
    }
}

extension FeedInfo {
    /// Writes one value per field, in ``Field`` order, in their primitive form (see ``FieldSink``).
    /// - Parameter sink: receives the values.
    public func write<Sink: FieldSink>(to sink: inout Sink) {
        sink.write(feedPublisherName)
        sink.write(feedPublisherURL)
        sink.write(feedLang)
        sink.write(defaultLang)
        sink.write(feedStartDate)
        sink.write(feedEndDate)
        sink.write(feedVersion)
        sink.write(feedContactEmail)
        sink.write(feedContactURL)
    }
}
