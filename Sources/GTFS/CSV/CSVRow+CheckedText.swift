/// Text whose form the reference defines (URLs, emails, phone numbers, time zones, language and currency
/// codes): kept with a warning when it looks wrong, except currency codes, which are errors.
extension CSVRow {
    // MARK: Checked text (kept with a warning when malformed)

    /// A URL; a value that is not an absolute `http`/`https` URL is kept with a warning.
    public func url(_ field: Field) -> String? {
        guard let value = text(field) else { return nil }
        if !TextChecks.isURL(value) { warn(field, "is not an absolute http(s) URL") }
        return value
    }

    /// A URL that must be present (checked like ``url(_:)``).
    /// - Throws: ``GTFSError`` when empty.
    public func requiredURL(_ field: Field) throws -> String {
        guard let value = url(field) else { throw missing(field) }
        return value
    }

    /// An email address; a value without `local@domain` form is kept with a warning.
    public func email(_ field: Field) -> String? {
        guard let value = text(field) else { return nil }
        if !TextChecks.isEmail(value) { warn(field, "is not an email address") }
        return value
    }

    /// A phone number; a value without digits is kept with a warning.
    public func phoneNumber(_ field: Field) -> String? {
        guard let value = text(field) else { return nil }
        if !TextChecks.isPhoneNumber(value) { warn(field, "is not a phone number") }
        return value
    }

    /// An IANA time zone (`Europe/Berlin`); other forms are kept with a warning.
    public func timezone(_ field: Field) -> String? {
        guard let value = text(field) else { return nil }
        if !TextChecks.isTimezone(value) { warn(field, "is not an IANA time zone name") }
        return value
    }

    /// A time zone that must be present (checked like ``timezone(_:)``).
    /// - Throws: ``GTFSError`` when empty.
    public func requiredTimezone(_ field: Field) throws -> String {
        guard let value = timezone(field) else { throw missing(field) }
        return value
    }

    /// An IETF BCP 47 language code (`de`, `en-US`); other forms are kept with a warning.
    public func languageCode(_ field: Field) -> String? {
        guard let value = text(field) else { return nil }
        if !TextChecks.isLanguageCode(value) { warn(field, "is not a BCP 47 language code") }
        return value
    }

    /// A language code that must be present.
    /// - Throws: ``GTFSError`` when empty.
    public func requiredLanguageCode(_ field: Field) throws -> String {
        guard let value = languageCode(field) else { throw missing(field) }
        return value
    }

    /// An ISO 4217 currency code (`EUR`); other forms are an error.
    /// - Throws: ``GTFSError`` when not three ASCII letters.
    public func currencyCode(_ field: Field) throws -> String? {
        guard let value = text(field) else { return nil }
        guard TextChecks.isCurrencyCode(value) else { throw error(field, "is not an ISO 4217 currency code") }
        return value
    }

    /// A currency code that must be present.
    /// - Throws: ``GTFSError`` when empty or not three letters.
    public func requiredCurrencyCode(_ field: Field) throws -> String {
        guard let value = try currencyCode(field) else { throw missing(field) }
        return value
    }
}
