/// A row of `translations.txt`: a translation of one text field, for one record or for every matching value.
public struct Translation: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.translations

    /// The fields of `translations.txt`, in the order of the reference: name, type and presence of each.
    public enum Field: Int, GTFSField {
        /// A column of `translations.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case tableName, fieldName, language, translation, recordID, recordSubID, fieldValue

        /// The field as the reference describes it.
        public var spec: FieldSpec {
            switch self {
            case .tableName: FieldSpec("table_name", .text, .required)
            case .fieldName: FieldSpec("field_name", .text, .required)
            case .language: FieldSpec("language", .text, .required)
            case .translation: FieldSpec("translation", .text, .required)
            case .recordID: FieldSpec("record_id", .id, .conditionallyRequired)
            case .recordSubID: FieldSpec("record_sub_id", .id, .conditionallyRequired)
            case .fieldValue: FieldSpec("field_value", .text)
            }
        }

        /// The key: `table_name`, `field_name`, `language`, `record_id`, `record_sub_id`, `field_value`.
        public static let key: [Field] = [.tableName, .fieldName, .language, .recordID, .recordSubID, .fieldValue]
    }


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
    /// - Parameter row: one row of `translations.txt`.
    /// - Throws: ``GTFSError`` for an invalid value or a broken rule.
    public init(row: CSVRow<Field>) throws {
        tableName = try row.requiredText(.tableName)
        fieldName = try row.requiredText(.fieldName)
        language = try row.requiredLanguageCode(.language)
        translation = try row.requiredText(.translation)
        recordID = row.id(.recordID)
        recordSubID = row.id(.recordSubID)
        fieldValue = row.text(.fieldValue)

        if tableName == "feed_info" {
            if recordID != nil { throw row.ruleError(.recordID, "is forbidden for table_name feed_info") }
            if recordSubID != nil { throw row.ruleError(.recordSubID, "is forbidden for table_name feed_info") }
            if fieldValue != nil { throw row.ruleError(.fieldValue, "is forbidden for table_name feed_info") }
            return
        }
        if recordID != nil && fieldValue != nil {
            throw row.ruleError(.fieldValue, "is forbidden when record_id is given")
        }
        if recordID == nil && fieldValue == nil {
            throw row.ruleError(.recordID, "is required when field_value is empty")
        }
        if recordSubID != nil && fieldValue != nil {
            throw row.ruleError(.recordSubID, "is forbidden when field_value is given")
        }
        if tableName == "stop_times" && recordID != nil && recordSubID == nil {
            throw row.ruleError(.recordSubID, "is required for table_name stop_times when record_id is given")
        }
    }
}

extension Translation {
    /// Writes one value per field, in ``Field`` order, in their primitive form (see ``FieldSink``).
    /// - Parameter sink: receives the values.
    public func write<Sink: FieldSink>(to sink: inout Sink) {
        sink.write(tableName)
        sink.write(fieldName)
        sink.write(language)
        sink.write(translation)
        sink.write(recordID)
        sink.write(recordSubID)
        sink.write(fieldValue)
    }
}
