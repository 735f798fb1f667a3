// The fixed sets of names that the engine, the wire and the clients share: one type each, the
// cases named as they are sent, in the order an error lists them. The engine gives them their
// behaviour; the protocol decodes them (`WireChoice`), refusing a name outside the set.

/// What a layout is measured in.
public enum LengthUnit: String, Sendable, Hashable, CaseIterable {
    /// Points, with text measured in a font.
    case pt
    /// Terminal columns and lines.
    case cell
}

/// Compact (phone-width) or regular.
public enum SizeClass: String, Sendable, Hashable, CaseIterable {
    /// Phone width: a list report unless the container scrolls sideways.
    case compact
    /// The grid.
    case regular
}

/// What sits beside a row, outside the columns.
public enum RowAccessory: String, Sendable, Hashable, CaseIterable {
    /// No accessory.
    case none
    /// Selection checkboxes (left; by default while the table's selection mode is `multiple`).
    case checkbox
    /// The row's sync status (left; by default when a column is bound to `syncStatus` and
    /// there are no checkboxes).
    case syncStatus
    /// A drill-down chevron (right; only when asked for).
    case chevron
}

/// Horizontal alignment of a column's cells.
public enum ColumnAlignment: String, Sendable, Hashable, CaseIterable {
    /// Content against the leading edge.
    case leading
    /// Content centred.
    case center
    /// Content against the trailing edge.
    case trailing
}

/// Where a column's value goes when rows are drawn as object views (the compact list report,
/// after FUIGridTableViewCell's bindings), or an accessory a column drives: `syncStatus` for the
/// row's sync-status icon in the left accessory, `drillDown` for whether the row has a chevron.
public enum ColumnBinding: String, Sendable, Hashable, CaseIterable {
    /// The text lines of the object view, top to bottom; each bound one adds a line to the row's height.
    case headline, subheadline, footnote
    /// Status texts; `status` shares its place with `statusImage`, `substatus` with `substatusImage`.
    case status, substatus
    /// Image places (image columns only): status and substatus images, the detail image, and the icon
    /// (never bound by default).
    case statusImage, substatusImage, detailImage, icon
    /// Not a place in the object view: the column's value is the row's sync-status icon in the left accessory.
    case syncStatus
    /// Not a place in the object view: the column says whether the row has a drill-down chevron
    /// in the right accessory.
    case drillDown
}

/// What kind of values a column holds; decides parsing, validation, display, alignment and order.
public enum ColumnValueType: String, Sendable, Hashable, CaseIterable {
    /// Free text (`maxLength`, `pattern`). Compared case-insensitively.
    case text
    /// A decimal number (`min`, `max`, `decimals`). Right-aligned.
    case number
    /// A calendar day, `YYYY-MM-DD` (`min`, `max`).
    case date
    /// A time of day, `HH:MM` or `HH:MM:SS` (`min`, `max`).
    case time
    /// A length of time, stored as whole seconds; accepts `PT1H30M`, `1h 30m` or seconds; shown
    /// as `1h 30m` (`min`, `max`).
    case duration
    /// One of the column's `options`.
    case picker
    /// A reference to an image (a name or URL); fixed width, never edited inline.
    case image
    /// True or false, shown as a checkbox (☑ / ☐); takes `true`/`false`, `yes`/`no`, `1`/`0`.
    case boolean
    /// An instant: ISO 8601 with an offset (`2024-03-15T14:30:00+01:00`), stored as the instant
    /// and shown in the column's zone (`format.zone`, UTC by default) (`min`, `max`).
    case datetime
}

/// Which edge a view keeps in sight as rows come.
public enum FollowEdge: String, Sendable, Hashable, CaseIterable {
    /// Keep the anchored row in place.
    case none
    /// While at the top, stay at the top (new rows on top come into view).
    case top
    /// While at the bottom, stay at the bottom (appended rows come into view).
    case bottom
}

/// Where to scroll a row to.
public enum TargetAlignment: String, Sendable, Hashable, CaseIterable {
    /// Its top just below the header.
    case top
    /// Its middle in the middle of the space below the header.
    case center
    /// Its bottom at the viewport's bottom.
    case bottom
    /// As little as brings it fully into view; not at all when it already is.
    case nearest
}

/// The HIG's table styles, for a view in sections.
public enum SectionStyle: String, Sendable, Hashable, CaseIterable {
    /// Headers stick to the top while their section scrolls; an index may run down the side.
    case plain
    /// Sections set apart by space.
    case grouped
    /// Grouped, with the rows inset from both edges.
    case insetGrouped
}

/// How many rows may be selected at once.
public enum RowSelectionMode: String, Sendable, Hashable, CaseIterable {
    /// No row can be selected.
    case none
    /// At most one.
    case single
    /// Any number (the default).
    case multiple
}

/// The formats `load` reads and `export` writes.
public enum DataFileFormat: String, Sendable, Hashable, CaseIterable {
    /// Comma-separated values: a header row naming the columns, then one record per row.
    case csv
    /// Newline-delimited JSON: one object per row, each on a line of its own.
    case ndjson
    /// JSON: one array of objects, one per row.
    case json
}

/// What a view's sections and grand total sum up of a column. Empty cells are skipped by every
/// function: `count` counts the cells that hold a value.
public enum AggregateFunction: String, Sendable, Hashable, CaseIterable {
    /// How many cells hold a value.
    case count
    /// The total (number and duration columns).
    case sum
    /// The mean (number and duration columns).
    case avg
    /// The least value, in the column's sort order.
    case min
    /// The greatest value, in the column's sort order.
    case max
    /// How many different values the cells hold.
    case countDistinct
    /// The middle value in sort order; of an even count, the mean of the two middle ones in a
    /// number or duration column and the lower one otherwise.
    case median
    /// The value of the first row, in the view's order, that has one.
    case first
    /// The value of the last row, in the view's order, that has one.
    case last
}

/// Where a section's aggregates are shown.
public enum TotalsPlacement: String, Sendable, Hashable, CaseIterable {
    /// In the section's header, beside its title.
    case header
    /// In the section's footer (which is then shown).
    case footer
}

/// Where the grand total row (the aggregates of every row the view shows) goes.
public enum GrandTotalPlacement: String, Sendable, Hashable, CaseIterable {
    /// Before the first section, scrolling with the rows.
    case top
    /// After the last section, scrolling with the rows.
    case bottom
    /// Below the table's header, staying there while rows scroll under it.
    case pinnedTop
    /// At the bottom of the viewport, staying there while rows scroll above it.
    case pinnedBottom
}
