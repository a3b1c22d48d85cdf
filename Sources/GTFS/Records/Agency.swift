/// A row of `agency.txt`: a transit agency whose services the feed describes.
public struct Agency: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.agency

    /// The fields of `agency.txt`, in the order of the reference: name, type and presence of each.
    public enum Field: Int, GTFSField {
        /// A column of `agency.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case agencyID, agencyName, agencyURL, agencyTimezone, agencyLang, agencyPhone, agencyFareURL, agencyEmail
        /// A column of `agency.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case cemvSupport

        /// The field as the reference describes it.
        public var spec: FieldSpec {
            switch self {
            case .agencyID: FieldSpec("agency_id", .id)
            case .agencyName: FieldSpec("agency_name", .text, .required)
            case .agencyURL: FieldSpec("agency_url", .text, .required)
            case .agencyTimezone: FieldSpec("agency_timezone", .text, .required)
            case .agencyLang: FieldSpec("agency_lang", .text)
            case .agencyPhone: FieldSpec("agency_phone", .text)
            case .agencyFareURL: FieldSpec("agency_fare_url", .text)
            case .agencyEmail: FieldSpec("agency_email", .text)
            case .cemvSupport: FieldSpec("cemv_support", .enumeration, .defaulted)
            }
        }

        /// The key: `agency_id`.
        public static let key: [Field] = [.agencyID]
    }


    /// `agency_id`: required when the feed has several agencies (a check across rows, not made here).
    public var agencyID: GTFSID?
    /// `agency_name`.
    public var agencyName: String
    /// `agency_url`.
    public var agencyURL: String
    /// `agency_timezone`: the same for every agency of the feed.
    public var agencyTimezone: String
    /// `agency_lang`: the main language of the agency's riders.
    public var agencyLang: String?
    /// `agency_phone`.
    public var agencyPhone: String?
    /// `agency_fare_url`: where to buy tickets or read about fares.
    public var agencyFareURL: String?
    /// `agency_email`: customer service.
    public var agencyEmail: String?
    /// `cemv_support`; empty reads as ``CEMVSupport/noInformation``. A route's own value takes precedence.
    public var cemvSupport: CEMVSupport

    /// Decodes an agency.
    /// - Parameter row: one row of `agency.txt`.
    /// - Throws: ``GTFSError`` for an invalid value or a missing required one.
    public init(row: CSVRow<Field>) throws {
        agencyID = row.id(.agencyID)
        agencyName = try row.requiredText(.agencyName)
        agencyURL = try row.requiredURL(.agencyURL)
        agencyTimezone = try row.requiredTimezone(.agencyTimezone)
        agencyLang = row.languageCode(.agencyLang)
        agencyPhone = row.phoneNumber(.agencyPhone)
        agencyFareURL = row.url(.agencyFareURL)
        agencyEmail = row.email(.agencyEmail)
        cemvSupport = try row.enumeration(.cemvSupport) ?? .noInformation
    }
}

extension Agency {
    /// Writes one value per field, in ``Field`` order, in their primitive form (see ``FieldSink``).
    /// - Parameter sink: receives the values.
    public func write<Sink: FieldSink>(to sink: inout Sink) {
        sink.write(agencyID)
        sink.write(agencyName)
        sink.write(agencyURL)
        sink.write(agencyTimezone)
        sink.write(agencyLang)
        sink.write(agencyPhone)
        sink.write(agencyFareURL)
        sink.write(agencyEmail)
        sink.write(cemvSupport)
    }
}
