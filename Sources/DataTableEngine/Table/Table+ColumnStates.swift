extension Table {
    /// The most column arrangements one table keeps.
    public static let columnStateLimit = 100

    /// Column arrangements saved by name (`columnState`): each as the JSON its owner gave,
    /// which the table keeps without reading it.
    public var columnStates: [String: String] { savedColumnStates }

    /// Keeps `state` under `name` (replacing one of that name) as one change; past
    /// ``columnStateLimit`` names it is refused.
    public mutating func saveColumnState(_ state: String, as name: String) throws(TableError) {
        guard savedColumnStates[name] != nil || savedColumnStates.count < Self.columnStateLimit else {
            throw .invalidArgument(
                "A table keeps at most \(Self.columnStateLimit) column states; delete one first.",
                field: "name"
            )
        }
        savedColumnStates[name] = state
        version += 1
    }

    /// Forgets the arrangement called `name` as one change; returns whether there was one.
    public mutating func deleteColumnState(_ name: String) -> Bool {
        guard savedColumnStates.removeValue(forKey: name) != nil else { return false }
        version += 1
        return true
    }

    /// Puts back arrangements kept with a stored table (no change of version).
    public mutating func restoreColumnStates(_ states: [String: String]) {
        savedColumnStates = states
    }
}
