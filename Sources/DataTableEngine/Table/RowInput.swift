/// A new row as a client sends it: values by column key (absent columns are empty), optional
/// read-only settings for the row and for single cells, and whether it has a drill-down chevron.
public struct RowInput: Sendable {
    /// Values by column key; a key the table lacks refuses the batch (``TableError/noSuchColumn(_:row:)``).
    public var values: [String: CellInput]
    /// Overrides the columns' and table's setting for the whole row.
    public var readOnly: Bool?
    /// Overrides the row's setting for single cells, by column key.
    public var readOnlyCells: [String: Bool]
    /// Whether the row has the drill-down chevron, over the column bound to `drillDown`.
    public var drillDown: Bool?

    /// A row with `values`, following its columns' and the table's settings unless told otherwise.
    public init(
        values: [String: CellInput],
        readOnly: Bool? = nil,
        readOnlyCells: [String: Bool] = [:],
        drillDown: Bool? = nil
    ) {
        self.values = values
        self.readOnly = readOnly
        self.readOnlyCells = readOnlyCells
        self.drillDown = drillDown
    }
}

/// Where a new row landed.
public struct AddedRow: Sendable, Hashable {
    /// The new row's id: generated, or its key column's value.
    public var id: RowID
    /// Its position in the current order once the whole batch is in.
    public var index: Int
    /// The time handed to ``Table/add(_:at:now:)``, in seconds since 1970.
    public var addedAt: Double
}
