import MemberwiseInit

/// How a column wants to be laid out: the hints stored with a column (the members of a column
/// definition that only layout reads), and those a `layout`, a `scroll` or a saved column state
/// gives for one view in their place. `nil` means "not said": the column's own hint, or the
/// default, applies (the engine's `merging`).
@MemberwiseInit
public struct ColumnHints: Sendable, Hashable {
    /// Points (or cells) when 1 or more, a fraction of the container below 1, -1 for the one
    /// flexible column; absent: the column's own, else sized to content.
    public var width: Double?
    /// The least width a truncated column keeps, read like `width` (no -1); absent: the column's own, else `minShare`.
    public var minWidth: Double?
    /// The most width content gives the column, read like `width` (no -1); absent: the column's own, else `maxShare`.
    public var maxWidth: Double?
    /// `leading`, `center` or `trailing`; absent: the column's own, else by type (numbers and durations trail,
    /// images centre).
    public var align: ColumnAlignment?
    /// Lines a cell may wrap to: 1 or 2; absent: the column's own, else 1.
    public var lines: Int?
    /// Whether the column stays in view while scrolling sideways (the first column only); absent: the column's
    /// own, else `false`.
    public var sticky: Bool?
    /// Its place in the compact list report (`headline`, …), or the accessory it drives
    /// (`syncStatus`, `drillDown`); absent: the column's own, else the default places.
    public var binding: ColumnBinding?
    /// `true`: the column is not shown (in this view, or by default); absent: the column's own,
    /// else shown.
    public var hidden: Bool?
}
