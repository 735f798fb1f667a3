/// Which groups of a view's sections a collapse or an expand names.
public enum GroupTarget: Sendable, Equatable {
    /// One group, by the values of its path (outermost first), as the columns take them.
    case group([CellInput])
    /// Every group of a level (0: the outermost).
    case level(Int)
    /// Every group of every level.
    case all
}

extension Table {
    /// Collapses (`true`) or expands the groups `target` names in the sections of the view
    /// with `id`; the view then shows their headers but not their rows or nested groups.
    /// Returns how many of its groups are collapsed now. Costs O(s × depth) for `s` leaves
    /// (the rows' heights under collapsed groups are measured again at the next scroll).
    @discardableResult
    public mutating func setCollapsed(_ collapsed: Bool, _ target: GroupTarget, view id: UInt64) throws(TableError)
        -> Int
    {
        guard let index = sectionsIndex(id) else {
            throw .invalidArgument("The view has no sections (give scroll sections first).", field: "table")
        }
        let depth = sections[index].depth
        var collapse = sections[index].collapse
        switch target {
        case .group(let inputs):
            guard (1...depth).contains(inputs.count) else {
                throw .invalidArgument(
                    "group gives 1 to \(depth) values, outermost first (the view groups by \(depth) column\(depth == 1 ? "" : "s")).",
                    field: "group"
                )
            }
            var path: [CellValue] = []
            for (level, input) in inputs.enumerated() {
                let column = columns[sections[index].spec.columns[level]]
                do {
                    path.append(try column.rules.parseComparand(input))
                } catch {
                    throw .invalidArgument("\(error.message) (\(column.key))", field: "group[\(level)]")
                }
            }
            guard groupExists(path, in: index) else {
                let titles = path.enumerated().map { sectionTitle($1, level: $0, in: index) }
                throw .invalidArgument(
                    "The view has no group \(titles.map { "“\($0)”" }.joined(separator: " › ")).",
                    field: "group"
                )
            }
            guard collapse.set(collapsed, path: path) else {
                throw .invalidArgument(
                    "At most \(GroupCollapse.maximumNamed) groups are collapsed or expanded one by one: collapse or expand a level.",
                    field: "group"
                )
            }
        case .level(let level):
            guard (0..<depth).contains(level) else {
                throw .invalidArgument("level is from 0 (the outermost) to \(depth - 1).", field: "level")
            }
            collapse.set(collapsed, level: level)
        case .all:
            collapse.setAll(collapsed)
        }
        sections[index] = sections[index].collapsing(collapse)
        return collapsedCount(in: index)
    }

    /// How many groups of the view with `id`'s sections are collapsed (nested ones under a
    /// collapsed group included); 0 without sections.
    public func collapsedGroups(of id: UInt64) -> Int {
        sectionsIndex(id).map { collapsedCount(in: $0) } ?? 0
    }

    /// How many rows the view with `id` shows; `nil` without sections.
    public func sectionedShownCount(of id: UInt64) -> Int? {
        sectionsIndex(id).map { sections[$0].shownCount }
    }

    private func collapsedCount(in index: Int) -> Int {
        let sectioned = sections[index]
        guard !sectioned.collapse.isEmpty else { return 0 }
        var count = 0
        for level in 0..<sectioned.depth {
            for group in 0..<sectioned.shape.groupCount(level) {
                let leaf = sectioned.shape.leaves(level, group: group).lowerBound
                if sectioned.collapse.isCollapsed(sectioned.path(leaf).prefix(level + 1)) { count += 1 }
            }
        }
        return count
    }

    /// Whether some leaf's path starts with `path`.
    private func groupExists(_ path: [CellValue], in index: Int) -> Bool {
        let leaf = sections[index].firstLeaf(notBefore: path)
        return leaf < sections[index].leafCount && sections[index].compare(leaf: leaf, with: path) == 0
    }
}
