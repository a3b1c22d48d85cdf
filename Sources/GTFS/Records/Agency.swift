/// A row of `agency.txt`: a transit agency whose services the feed describes.
public struct Agency: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.agency

    enum Column: Int {
        case agencyID, agencyName, agencyURL, agencyTimezone, agencyLang, agencyPhone, agencyFareURL, agencyEmail
        case cemvSupport
    }

    /// The columns of the reference, in order.
    public static let columns: [ColumnSpec] = [
        .optional("agency_id"), .required("agency_name"), .required("agency_url"), .required("agency_timezone"),
        .optional("agency_lang"), .optional("agency_phone"), .optional("agency_fare_url"), .optional("agency_email"),
        .optional("cemv_support"),
    ]

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
    /// - Throws: ``GTFSError`` for an invalid value or a missing required one.
    public init(row: Row) throws {
        typealias C = Column
        agencyID = row.id(C.agencyID.rawValue)
        agencyName = try row.requiredText(C.agencyName.rawValue)
        agencyURL = try row.requiredURL(C.agencyURL.rawValue)
        agencyTimezone = try row.requiredTimezone(C.agencyTimezone.rawValue)
        agencyLang = row.languageCode(C.agencyLang.rawValue)
        agencyPhone = row.phoneNumber(C.agencyPhone.rawValue)
        agencyFareURL = row.url(C.agencyFareURL.rawValue)
        agencyEmail = row.email(C.agencyEmail.rawValue)
        cemvSupport = try row.enumeration(C.cemvSupport.rawValue) ?? .noInformation
    }
}
