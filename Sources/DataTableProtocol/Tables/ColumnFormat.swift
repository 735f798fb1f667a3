import MemberwiseInit

/// How a number, date or datetime column shows its values (a column's `format`); every member is
/// optional. Values, exports and sorting keep the plain forms; a person may type either form.
@MemberwiseInit
public struct ColumnFormat: Codable, Hashable, Sendable {
    /// Number columns: separators between groups of three digits (`12,345.5`).
    public var grouping: Bool?
    /// Number columns: values are fractions shown × 100 with `%` (0.25 shows `25%`).
    public var percent: Bool?
    /// Number columns: text before the digits, such as `$` (at most 8 characters, no digits).
    public var prefix: String?
    /// Number columns: text after the digits, such as ` kg` (at most 8 characters, no digits).
    public var suffix: String?
    /// Number and date columns: the separators and date order of `en-US`, `en-GB`, `de-DE`,
    /// `fr-FR`, `es-ES`, `it-IT`, `ja-JP` or `zh-CN` (or the language alone: `de`); absent: plain.
    public var locale: String?
    /// Datetime columns: the zone instants are shown (and read, when typed without an offset)
    /// in: `UTC` (the default), an offset like `+02:00`, or a name of the time zone database
    /// like `Europe/Berlin` (daylight saving time followed).
    public var zone: String?
}
