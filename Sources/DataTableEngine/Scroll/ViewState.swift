/// What one client's view of a table remembers between scrolls: where it is, which rows it
/// showed and where on screen, the table version it last saw, and the plan it was drawn with.
///
/// The anchor (the first row shown below the header, and its y on screen) is what keeps content
/// from jumping: when rows come or go above it, or the table is re-sorted, the next scroll
/// without an explicit offset puts the same row at the same place (HIG, "keep content fresh").
public struct ViewState: Sendable {
    /// Whether the view sticks to an edge as rows arrive.
    public enum Follow: String, Sendable, Hashable, CaseIterable {
        /// Keep the anchored row in place.
        case none
        /// While at the top, stay at the top (new rows on top come into view).
        case top
        /// While at the bottom, stay at the bottom (appended rows come into view).
        case bottom
    }

    /// A row that was on screen, and its y there.
    struct ShownRow: Sendable {
        var id: RowID
        var y: Int
    }

    public var follow: Follow = .none
    /// The content offsets last used.
    public internal(set) var x = 0
    public internal(set) var y = 0
    /// The viewport height last used.
    public internal(set) var height = 0
    /// The rows last shown (without overscan), first to last; the first is the anchor.
    var shown: [ShownRow] = []
    /// The position of the anchor row when it was last shown.
    var anchorIndex = 0
    /// The table version the view last saw; `nil` before its first scroll.
    var seenVersion: UInt64?
    var wasAtTop = true
    var wasAtBottom = false
    /// The plan last drawn with, the options and the table version it was made for.
    var plan: LayoutPlan?
    var planOptions: LayoutOptions?
    var planVersion: UInt64 = 0

    public init(follow: Follow = .none) {
        self.follow = follow
    }

    /// The id of the first row below the header at the last scroll.
    public var anchorID: RowID? { shown.first?.id }

}

/// Where to scroll a row to.
public enum ScrollAlignment: String, Sendable, Hashable, CaseIterable {
    /// Its top just below the header.
    case top
    /// Its middle in the middle of the space below the header.
    case center
    /// Its bottom at the viewport's bottom.
    case bottom
    /// As little as brings it fully into view; not at all when it already is.
    case nearest
}

/// A row to bring into view.
public enum ScrollTarget: Sendable, Hashable {
    case row(RowID, ScrollAlignment)
    case index(Int, ScrollAlignment)
}

/// One scroll: the viewport's height (its width is the layout's), and where it should be.
/// Without `y` or a target, the view's anchor (or `follow`) decides.
public struct ScrollInput: Sendable {
    public var height: Int
    public var x: Int?
    public var y: Int?
    public var target: ScrollTarget?
    /// Rows to include above and below the visible ones.
    public var overscan: Int
    /// Seconds since 1970, for the highlight of added rows.
    public var now: Double

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
