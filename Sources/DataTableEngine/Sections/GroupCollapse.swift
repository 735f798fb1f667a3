/// Which groups of a view's sections are collapsed (their header shown, their rows and inner
/// groups not), kept by the groups' values rather than their places: a group keeps its state
/// through sorts, filter changes and edits that move rows, and one that empties and comes back
/// has the state it had.
///
/// Each level has a default (collapsing or expanding a whole level sets it) and the groups whose
/// state differs from their level's default are named by their path, the values of the
/// sections' columns from the outermost down to the group's own.
public struct GroupCollapse: Sendable, Equatable {
    /// Whether each level's groups are collapsed unless named in ``toggled``, outermost first.
    private(set) var collapsedByDefault: [Bool]
    /// Paths of groups whose state is the opposite of their level's default (a path of `k`
    /// values is a group of level `k - 1`).
    private(set) var toggled: Set<[CellValue]> = []

    /// The most groups named one by one; past it, collapsing one more is refused.
    public static let maximumNamed = 100_000

    /// Every group of `depth` levels expanded.
    init(depth: Int) {
        collapsedByDefault = Array(repeating: false, count: depth)
    }

    /// Nothing collapsed at any level.
    var isEmpty: Bool { toggled.isEmpty && !collapsedByDefault.contains(true) }

    /// Whether the group at `path` (1 to depth values) is collapsed.
    func isCollapsed<Path: Collection>(_ path: Path) -> Bool where Path.Element == CellValue {
        let level = path.count - 1
        guard !toggled.isEmpty else { return collapsedByDefault[level] }
        return collapsedByDefault[level] != toggled.contains(Array(path))
    }

    /// The first level (0 for the outermost) whose group on `path` (depth values) is collapsed;
    /// `path.count` when none is.
    func firstCollapsedLevel(_ path: ArraySlice<CellValue>) -> Int {
        guard !isEmpty else { return path.count }
        for level in 0..<path.count where isCollapsed(path.prefix(level + 1)) { return level }
        return path.count
    }

    /// Collapses (or expands) the group at `path`; `false` when that would name more than
    /// ``maximumNamed`` groups.
    mutating func set(_ collapsed: Bool, path: [CellValue]) -> Bool {
        if collapsedByDefault[path.count - 1] == collapsed {
            toggled.remove(path)
            return true
        }
        guard toggled.count < Self.maximumNamed || toggled.contains(path) else { return false }
        toggled.insert(path)
        return true
    }

    /// Collapses (or expands) every group of `level`, forgetting the ones named at it.
    mutating func set(_ collapsed: Bool, level: Int) {
        collapsedByDefault[level] = collapsed
        toggled = toggled.filter { $0.count != level + 1 }
    }

    /// Collapses (or expands) every group of every level.
    mutating func setAll(_ collapsed: Bool) {
        collapsedByDefault = collapsedByDefault.map { _ in collapsed }
        toggled = []
    }
}
