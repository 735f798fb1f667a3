/// A new row as a client sends it: values by column key (absent columns are empty), and
/// optional read-only settings for the row and for single cells.
public struct RowInput: Sendable {
    public var values: [String: CellInput]
    /// Overrides the columns' and table's setting for the whole row.
    public var readOnly: Bool?
    /// Overrides the row's setting for single cells, by column key.
    public var readOnlyCells: [String: Bool]

    public init(values: [String: CellInput], readOnly: Bool? = nil, readOnlyCells: [String: Bool] = [:]) {
        self.values = values
        self.readOnly = readOnly
        self.readOnlyCells = readOnlyCells
    }
}

/// Where a new row landed.
public struct AddedRow: Sendable, Hashable {
    public var id: RowID
    /// Its position in the current order once the whole batch is in.
    public var index: Int
    /// The time handed to ``Table/add(_:at:now:)``, in seconds since 1970.
    public var addedAt: Double
}
