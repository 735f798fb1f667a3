import DataTableVocabulary

/// What one client's view of a table remembers between scrolls: where it is, which rows it
/// showed and where on screen, the table version it last saw, and the plan it was drawn with.
///
/// The anchor (the first row shown below the header, and its y on screen) is what keeps content
/// from jumping: when rows come or go above it, or the table is re-sorted, the next scroll
/// without an explicit offset puts the same row at the same place (HIG, "keep content fresh").
public struct ViewState: Sendable {
    /// Which edge a view keeps in sight as rows come. (The vocabulary the engine shares with the wire.)
    public typealias Follow = FollowEdge

    /// A row that was on screen, and its y there.
    struct ShownRow: Sendable {
        var id: RowID
        var y: Int
    }

    /// Whether later scrolls stick to an edge while the view is at it; `.none` by default.
    public var follow: Follow = .none
    /// The id of the view's filter in the table (``Table/setFilter(_:id:)``): the view shows
    /// only the rows it lets through, and positions (`index`, `first`, `last`, a target index)
    /// count those rows. `nil`, or an id the table does not keep: every row.
    public var filter: UInt64?
    /// The id of the view's sections in the table (``Table/setSections(_:id:within:)``): the
    /// view shows its rows section by section, with headers (and footers) between them, and
    /// positions count them in that order. `nil`, or an id the table does not keep: no sections.
    public var sections: UInt64?
    /// The content offsets last used.
    public internal(set) var x = 0
    /// The vertical content offset last used (0 before the first scroll).
    public internal(set) var y = 0
    /// The viewport height last used.
    public internal(set) var height = 0
    /// The rows last shown (without overscan), first to last; the first is the anchor.
    var shown: [ShownRow] = []
    /// The position of the anchor row when it was last shown.
    var anchorIndex = 0
    /// The table version the view last saw; `nil` before its first scroll.
    var seenVersion: UInt64?
    /// What the view counted of the rows added since it last looked, for the next count.
    var newRows: NewRowsCount?
    var wasAtTop = true
    var wasAtBottom = false
    /// The plan last drawn with, the options and the table's ``Table/layoutGeneration`` it
    /// was made under.
    var plan: LayoutPlan?
    var planOptions: LayoutOptions?
    var planGeneration: UInt64 = 0

    /// A view that has not scrolled yet: without an offset or target, its first scroll starts at the top.
    public init(follow: Follow = .none) {
        self.follow = follow
    }

    /// The id of the first row below the header at the last scroll.
    public var anchorID: RowID? { shown.first?.id }

}

/// Where to scroll a row to. (The vocabulary the engine shares with the wire.)
public typealias ScrollAlignment = TargetAlignment

/// A row to bring into view.
public enum ScrollTarget: Sendable, Hashable {
    /// The row with this id, aligned as given; an unknown id throws ``TableError/noSuchRow(_:)``.
    case row(RowID, ScrollAlignment)
    /// The row at this position of the current order; out of range throws `invalidArgument` (`to.index`).
    case index(Int, ScrollAlignment)
    /// The header of the section with this value (read as its column's type), at the top (a
    /// view with sections); a value no section has throws `invalidArgument` (`to.section`).
    case section(CellInput)
}

/// One scroll: the viewport's height (its width is the layout's), and where it should be.
/// Without `y` or a target, the view's anchor (or `follow`) decides.
public struct ScrollInput: Sendable {
    /// The viewport's height in layout units, header included; must be more than 0 (else `invalidArgument`).
    public var height: Int
    /// Horizontal content offset, used only when the plan scrolls sideways; `nil` keeps the view's.
    public var x: Int?
    /// Vertical content offset (0: the top of the header); ignored when `target` is set. Clamped to the content.
    public var y: Int?
    /// A row to bring into view; takes the place of `y`.
    public var target: ScrollTarget?
    /// Rows to include above and below the visible ones.
    public var overscan: Int
    /// Seconds since 1970, for the highlight of added rows.
    public var now: Double
    /// Whether the view looks at the rows: rows added from then on are new to it (`newAbove`,
    /// `hiddenNew` count from here). A live window worked out again because the table changed
    /// does not look: its counts of new rows grow until its viewer scrolls.
    public var looks = true
    /// Whether each row also carries its cells' values (``ScrollWindow/Row/values``).
    public var values = false

    /// One scroll of a viewport `height` high, at `now`; without `y` or `target` the anchor (or `follow`) decides.
    public init(height: Int, x: Int? = nil, y: Int? = nil, target: ScrollTarget? = nil, overscan: Int = 0, now: Double)
    {
        self.height = height
        self.x = x
        self.y = y
        self.target = target
        self.overscan = overscan
        self.now = now
    }
}
