extension Table {
    /// The most column arrangements one table keeps (`maxColumnStates`).
    public static let columnStateLimit = 100

    /// The most bytes one table's column arrangements take together, names and JSON
    /// (`maxColumnStateBytes`, 1 MiB): a hundred arrangements of about 10 KB, each enough for the
    /// hidden flags, widths and order of a few hundred columns.
    public static let columnStateByteLimit = 1 << 20

    /// Column arrangements saved by name (`columnState`): each as the JSON its owner gave,
    /// which the table keeps without reading it.
    public var columnStates: [String: String] { savedColumnStates }

    /// Keeps `state` under `name` (replacing one of that name) as one change; past
    /// ``columnStateLimit`` names or ``columnStateByteLimit`` bytes it is refused (the server
    /// checks both first, to refuse with the limit's name).
    public mutating func saveColumnState(_ state: String, as name: String) throws(TableError) {
        guard savedColumnStates[name] != nil || savedColumnStates.count < Self.columnStateLimit else {
            throw .invalidArgument(
                "A table keeps at most \(Self.columnStateLimit) column states; delete one first.",
                field: "name"
            )
        }
        let bytes = columnStatesBytes(saving: state, as: name)
        guard bytes <= Self.columnStateByteLimit else {
            throw .invalidArgument(
                "A table's column states take at most \(Self.columnStateByteLimit) bytes together; delete one first.",
                field: "save"
            )
        }
        columnStateBytes = bytes
        savedColumnStates[name] = state
        version += 1
    }

    /// Forgets the arrangement called `name` as one change; returns whether there was one.
    public mutating func deleteColumnState(_ name: String) -> Bool {
        guard let state = savedColumnStates.removeValue(forKey: name) else { return false }
        columnStateBytes -= Self.columnStateBytes(name: name, state: state)
        version += 1
        return true
    }

    /// Puts back arrangements kept with a stored table (no change of version).
    public mutating func restoreColumnStates(_ states: [String: String]) {
        savedColumnStates = states
        columnStateBytes = states.reduce(0) { $0 + Self.columnStateBytes(name: $1.key, state: $1.value) }
    }

    /// What the kept column states take together, as ``columnStateByteLimit`` counts it.
    public var columnStatesBytes: Int { columnStateBytes }

    /// What the kept column states would take together once `state` is saved as `name`
    /// (replacing one of that name).
    public func columnStatesBytes(saving state: String, as name: String) -> Int {
        columnStateBytes + Self.columnStateBytes(name: name, state: state)
            - (savedColumnStates[name].map { Self.columnStateBytes(name: name, state: $0) } ?? 0)
    }

    /// What one kept arrangement takes: its name and its JSON.
    static func columnStateBytes(name: String, state: String) -> Int {
        name.utf8.count + state.utf8.count
    }
}
