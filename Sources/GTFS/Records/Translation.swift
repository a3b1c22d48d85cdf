/// A row of `translations.txt`: a translation of one text field, for one record or for every matching value.
public struct Translation: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.translations

    enum Column: Int {
        case tableName, fieldName, language, translation, recordID, recordSubID, fieldValue
    }

    /// The columns of the reference, in order.
    public static let columns: [ColumnSpec] = [
        .required("table_name"), .required("field_name"), .required("language"), .required("translation"),
        .optional("record_id"), .optional("record_sub_id"), .optional("field_value"),
    ]

    /// `table_name`: the file translated, without `.txt` (`agency`, `stops`, `routes`, `trips`, `stop_times`,
    /// `pathways`, `levels`, `feed_info`, `attributions`, or a newer file); kept as written.
    public var tableName: String
    /// `field_name`: the column translated, e.g. `stop_name`.
    public var fieldName: String
    /// `language`: the language of the translation.
    public var language: String
    /// `translation`: the translated text (or URL, email, phone number).
    public var translation: String
    /// `record_id`: the record translated (e.g. a `stop_id`); forbidden for `feed_info` or with `field_value`.
    public var recordID: GTFSID?
    /// `record_sub_id`: the second key part, required for `stop_times` (the `stop_sequence`).
    public var recordSubID: GTFSID?
    /// `field_value`: translate every occurrence of this value; forbidden for `feed_info` or with `record_id`.
    public var fieldValue: String?

    /// Decodes a translation and checks how it names what it translates.
    /// - Throws: ``GTFSError`` for an invalid value or a broken rule.
    public init(row: Row) throws {
        typealias C = Column
        tableName = try row.requiredText(C.tableName.rawValue)
        fieldName = try row.requiredText(C.fieldName.rawValue)
        language = try row.requiredLanguageCode(C.language.rawValue)
        translation = try row.requiredText(C.translation.rawValue)
        recordID = row.id(C.recordID.rawValue)
        recordSubID = row.id(C.recordSubID.rawValue)
        fieldValue = row.text(C.fieldValue.rawValue)

        if tableName == "feed_info" {
            if recordID != nil { throw row.ruleError(C.recordID.rawValue, "is forbidden for table_name feed_info") }
            if recordSubID != nil { throw row.ruleError(C.recordSubID.rawValue, "is forbidden for table_name feed_info") }
            if fieldValue != nil { throw row.ruleError(C.fieldValue.rawValue, "is forbidden for table_name feed_info") }
            return
        }
        if recordID != nil && fieldValue != nil {
            throw row.ruleError(C.fieldValue.rawValue, "is forbidden when record_id is given")
        }
        if recordID == nil && fieldValue == nil {
            throw row.ruleError(C.recordID.rawValue, "is required when field_value is empty")
        }
        if recordSubID != nil && fieldValue != nil {
            throw row.ruleError(C.recordSubID.rawValue, "is forbidden when field_value is given")
        }
        if tableName == "stop_times" && recordID != nil && recordSubID == nil {
            throw row.ruleError(C.recordSubID.rawValue, "is required for table_name stop_times when record_id is given")
        }
    }
}
