/// Checks a table's column definitions before a table is made from them.
enum TableSchema {
    static func check(columns: [Column], key: String?) throws(TableError) {
        guard !columns.isEmpty else { throw .invalidSchema("A table needs at least one column.", field: "columns") }
        var seen: Set<String> = []
        for (index, column) in columns.enumerated() {
            let field = "columns[\(index)]"
            try checkKey(column.key, field: field + ".key")
            guard seen.insert(column.key).inserted else {
                throw .invalidSchema("Two columns have the key \(column.key).", field: field + ".key")
            }
        }
        try checkLayout(columns.map(\.layout), types: columns.map(\.type)) { "columns[\($0)]" }
        if let key {
            guard let column = columns.first(where: { $0.key == key }) else {
                throw .invalidSchema("The key column \(key) is not among the columns.", field: "key")
            }
            guard !column.isComputed else {
                throw .invalidSchema("A key column holds the rows' ids; it cannot be computed.", field: "key")
            }
            guard column.type == .text || column.type == .number else {
                throw .invalidSchema("A key column must be text or number.", field: "key")
            }
        }
    }

    /// Checks a column key: not empty, not starting with `$` (the marks of a row's own members).
    static func checkKey(_ key: String, field: String) throws(TableError) {
        guard !key.isEmpty, !key.hasPrefix("$") else {
            throw .invalidSchema("A column key must not be empty or start with $.", field: field)
        }
    }

    /// The widest a column's width hints may be, in points or cells: as wide as the widest
    /// container a layout takes.
    static let maximumWidth = 1_000_000.0

    /// Checks columns' layout hints (`field` names column `i` in messages): widths, lines,
    /// stickiness, at most one flexible column, and list-report bindings that fit their columns
    /// and do not share a place.
    static func checkLayout(
        _ layouts: [ColumnLayout],
        types: [ColumnType],
        field: (Int) -> String
    ) throws(TableError) {
        var flexible: Int?
        var places: [ListBinding: Int] = [:]
        var groups: [Int: Int] = [:]
        for (index, layout) in layouts.enumerated() {
            let field = field(index)
            if let width = layout.width {
                if width == -1 {
                    if flexible != nil {
                        throw .invalidSchema("At most one column can be flexible (width -1).", field: field + ".width")
                    }
                    flexible = index
                } else if !(width > 0) || !(width <= maximumWidth) {
                    throw .invalidSchema(
                        "width is points or cells (1 to \(Int(maximumWidth))), a fraction of the container (0 to 1), "
                            + "or -1 for the flexible column.",
                        field: field + ".width"
                    )
                }
            }
            for (name, value) in [("minWidth", layout.minWidth), ("maxWidth", layout.maxWidth)] {
                if let value, !(value >= 0) || !(value <= maximumWidth) {
                    throw .invalidSchema(
                        "\(name) must be from 0 to \(Int(maximumWidth)): points or cells, or a fraction of the "
                            + "container below 1.",
                        field: field + "." + name
                    )
                }
            }
            if let low = layout.minWidth, let high = layout.maxWidth, (low >= 1) == (high >= 1), low > high {
                throw .invalidSchema("minWidth must not be greater than maxWidth.", field: field + ".minWidth")
            }
            guard layout.lineCount == 1 || layout.lineCount == 2 else {
                throw .invalidSchema("lines must be 1 or 2.", field: field + ".lines")
            }
            if layout.isSticky && index != 0 {
                throw .invalidSchema("Only the first column can be sticky.", field: field + ".sticky")
            }
            guard let binding = layout.binding else { continue }
            if !binding.isAccessory && binding.showsImage != (types[index] == .image) {
                throw .invalidSchema(
                    binding.showsImage
                        ? "\(binding.rawValue) shows an image; only an image column can go there."
                        : "\(binding.rawValue) shows text; an image column cannot go there.",
                    field: field + ".binding"
                )
            }
            if places.updateValue(index, forKey: binding) != nil {
                throw .invalidSchema("Two columns are bound to \(binding.rawValue).", field: field + ".binding")
            }
            if let group = binding.group, groups.updateValue(index, forKey: group) != nil {
                throw .invalidSchema(
                    "status and statusImage (or substatus and substatusImage) share one place; bind only one.",
                    field: field + ".binding"
                )
            }
        }
    }
}
