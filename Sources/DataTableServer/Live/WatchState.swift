import DataTableProtocol

/// One watch of a connection (`watch`): what the client holds of its window, and when it may
/// hear of it next. Kept in the connection's ``RequestContext`` and used on its event loop only.
///
/// The memory it holds is one window (what the client was last sent), whatever the rate of
/// change: changes between two deltas are merged by working out the difference between that
/// window and a fresh one when the next delta is due.
struct WatchState: Sendable {
    /// The watch's id on its connection.
    var id: Int
    /// The table watched; the connection's view of it is the window.
    var table: String
    /// The most deltas a second.
    var maxRate: Int
    /// While set, the window keeps its rows and order (``WatchRequest/freeze``).
    var frozen = false
    /// The window as the client holds it once it applied every delta sent.
    var window: JSONValue
    /// The last delta's number.
    var seq = 0
    /// The table changed (or the view did) since the window was worked out.
    var stale = false
    /// When the last delta went, for the rate.
    var sentAt: ContinuousClock.Instant?
    /// While frozen: row changes held back, as last counted.
    var pending = 0
    /// Whether the window's rows carry their cells' values (`values` on `watch`).
    var values = false

    /// The scroll that works the window out again: the connection's view of the table as it
    /// is, with the watch's `values`.
    var scroll: ScrollRequest {
        var scroll = ScrollRequest(table: table)
        scroll.values = values
        return scroll
    }

    /// How long to wait after a delta before the next.
    var interval: Duration { .milliseconds(1000 / maxRate) }
}
