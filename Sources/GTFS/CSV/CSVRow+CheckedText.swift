/// Text whose form the reference defines (URLs, emails, phone numbers, time zones, language and currency
/// codes): kept with a warning when it looks wrong, except currency codes, which are errors.
extension CSVRow {
    // MARK: Checked text (kept with a warning when malformed)

    /// A URL; a value that is not an absolute `http`/`https` URL is kept with a warning.
    /// - Parameter field: the field.
    /// - Returns: the text, kept even when malformed; `nil` for an absent field or an empty cell.
    public func url(_ field: Field) -> String? { checkedText(field, TextChecks.isURL, "is not an absolute http(s) URL") }

    /// A URL that must be present (checked like ``url(_:)``).
    /// - Parameter field: the field.
    /// - Returns: the text, kept even when malformed.
    /// - Throws: ``GTFSError`` when empty.
    public func requiredURL(_ field: Field) throws -> String { try present(field, url(field)) }

    /// An email address; a value without `local@domain` form is kept with a warning.
    /// - Parameter field: the field.
    /// - Returns: the text, kept even when malformed; `nil` for an absent field or an empty cell.
    public func email(_ field: Field) -> String? { checkedText(field, TextChecks.isEmail, "is not an email address") }

    /// A phone number; a value without digits is kept with a warning.
    /// - Parameter field: the field.
    /// - Returns: the text, kept even when malformed; `nil` for an absent field or an empty cell.
    public func phoneNumber(_ field: Field) -> String? { checkedText(field, TextChecks.isPhoneNumber, "is not a phone number") }

    /// An IANA time zone (`Europe/Berlin`); other forms are kept with a warning.
    /// - Parameter field: the field.
    /// - Returns: the text, kept even when malformed; `nil` for an absent field or an empty cell.
    public func timezone(_ field: Field) -> String? { checkedText(field, TextChecks.isTimezone, "is not an IANA time zone name") }

    /// A time zone that must be present (checked like ``timezone(_:)``).
    /// - Parameter field: the field.
    /// - Returns: the text, kept even when malformed.
    /// - Throws: ``GTFSError`` when empty.
    public func requiredTimezone(_ field: Field) throws -> String { try present(field, timezone(field)) }

    /// An IETF BCP 47 language code (`de`, `en-US`); other forms are kept with a warning.
    /// - Parameter field: the field.
    /// - Returns: the text, kept even when malformed; `nil` for an absent field or an empty cell.
    public func languageCode(_ field: Field) -> String? { checkedText(field, TextChecks.isLanguageCode, "is not a BCP 47 language code") }

    /// A language code that must be present.
    /// - Parameter field: the field.
    /// - Returns: the text, kept even when malformed.
    /// - Throws: ``GTFSError`` when empty.
    public func requiredLanguageCode(_ field: Field) throws -> String { try present(field, languageCode(field)) }

    /// An ISO 4217 currency code (`EUR`); other forms are an error.
    /// - Parameter field: the field.
    /// - Returns: the code; `nil` for an absent field or an empty cell.
    /// - Throws: ``GTFSError`` when not three ASCII letters.
    public func currencyCode(_ field: Field) throws -> String? {
        guard let value = text(field) else { return nil }
        guard TextChecks.isCurrencyCode(value) else { throw error(field, "is not an ISO 4217 currency code") }
        return value
    }

    /// A currency code that must be present.
    /// - Parameter field: the field.
    /// - Returns: the code.
    /// - Throws: ``GTFSError`` when empty or not three letters.
    public func requiredCurrencyCode(_ field: Field) throws -> String { try present(field, try currencyCode(field)) }

    /// The text of `field`, kept with the warning `message` when `isValid` says it is malformed.
    private func checkedText(_ field: Field, _ isValid: (String) -> Bool, _ message: String) -> String? {
        guard let value = text(field) else { return nil }
        if !isValid(value) { warn(field, message) }
        return value
    }
}
