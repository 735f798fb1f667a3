import DataTableClient
import DataTableProtocol
import Foundation
import TextMeasure

#if canImport(Glibc)
    import Glibc
#endif

/// `datatable view`: a full-screen terminal view of one table, drawn only from the daemon's
/// `layout` replies and the window of its `watch` (in terminal cells): the window as the watch's
/// reply gives it, kept current by applying each `window` notification (``WindowDelta``), so
/// that what other clients change shows without a key press. Moving or reshaping the view is a
/// `watch` again on the same connection, whose reply (a delta from the window held, or the whole
/// window) is applied the same way.
///
/// Keys: arrows, PgUp/PgDn, Home/End move the cursor row and column (the daemon scrolls the view
/// to keep it in sight); space selects the cursor row, `a` selects all (or none), `e` edits the
/// cell under the cursor, `+` adds a row, `s` cycles the sort on the cursor's column, `/` searches
/// every column, `f` keeps only the rows whose cursor-column value is the cursor row's, `F` shows
/// every row again, `g` groups the rows into sections by the cursor's column (on another column
/// while grouped, nests groups by it too, up to four; on a grouped column, stops grouping by it),
/// `c` collapses the innermost group of the cursor row and `C` expands every group,
/// `d` deletes the selected rows, `u` undoes the table's last change and `U` makes it again,
/// `h` hides the cursor's column in this view (`H` shows every column again), `<` and `>` move
/// it left and right in this view, `?` lists every key, `q` (or Ctrl-C) quits; Esc cancels what
/// is under way (a prompt, the pick list, the key list, a message) and never quits. The filter
/// (this viewer's own view of the table) is on the status line in words.
final class Viewer {
    /// Every key, with what it does: the `?` list.
    static let keys: [(key: String, does: String)] = [
        ("↑ ↓ ← →", "move the cursor row and column"),
        ("PgUp PgDn", "a page up or down"),
        ("Home End", "the first or the last row"),
        ("space", "select the cursor row (or take it out of the selection)"),
        ("a", "select every row shown, or none"),
        ("e", "edit the cell under the cursor (Enter keeps, Esc cancels)"),
        ("+", "add a row"),
        ("d", "delete the selected rows"),
        ("y", "copy the selected rows as shown to the clipboard (OSC 52; tab-separated)"),
        ("u  U", "undo the table's last change; make it again"),
        ("s", "sort by the cursor's column: ascending, descending, unsorted"),
        ("/", "search every column"),
        ("f", "filter by the cursor's column: pick values from a list"),
        ("F", "show every row again"),
        ("g", "group by the cursor's column; nest by another (4 at most); ungroup a grouped one"),
        ("c  C", "collapse the cursor row's group; expand every group"),
        ("h  H", "hide the cursor's column in this view; show every column"),
        ("<  >", "move the cursor's column left or right in this view"),
        ("?", "list these keys"),
        ("Esc", "cancel: a prompt, the pick list, this list, a message"),
        ("q  Ctrl-C", "quit"),
    ]

    /// What the status line asks for while the user types.
    private struct Prompt {
        var label: String
        var text: String
        var submit: (Viewer, String) throws -> Void
    }

    /// How the next `watch` places the view.
    private enum Placement {
        /// Where the daemon's anchor keeps it (the cursor stays on its row).
        case anchored
        /// As little as brings the cursor row into view.
        case cursor
    }

    private let table: String
    /// The connection the view, its watch and every request are on.
    private let session: DaemonSession
    private let terminal: Terminal
    /// The window as the watch gave it, with every delta since applied.
    private var held: JSONValue = .null
    private var window: WindowText { WindowText(window: held) }
    /// The watch's id once made, and the last delta's number (a gap means one went missing: a
    /// new watch then gives the whole window again).
    private var watchID: Int?
    private var seq = 0
    private var resync = false
    /// Rows a delta brought that the table added or changed meanwhile, drawn bold for a while
    /// (a watched window has no `highlight`): since when.
    private var fresh: [JSONValue: ContinuousClock.Instant] = [:]
    private static let freshFor = Duration.seconds(2)
    /// The layout with sideways scrolling: every column's place in the content.
    private var plan: JSONValue = .null
    private var planKey = ""
    private var size = (columns: 80, rows: 24)
    private var cursor = 0
    private var cursorID: JSONValue?
    private var column = 0
    private var x = 0
    private var newAbove = 0
    /// The window's `newAbove` as counted into `newAbove`: it grows as rows come above the
    /// view, and starts again from 0 each time the view is moved (the daemon then "looks").
    private var newAboveCounted = 0
    private var message: (text: String, isError: Bool)?
    private var prompt: Prompt?
    /// The pick list `f` opened, while it is open.
    private var pickList: PickList?
    /// Whether the key list (`?`) is shown in place of the rows.
    private var showingKeys = false
    private var running = true
    /// The table's sort, for the ▲ / ▼ in the header (fetched again when the sorted columns
    /// the window marks change), and those marks.
    private var sortKeys: [SortKeyParam] = []
    private var sortMarks: [String] = []
    /// The conditions of this viewer's filter (`f` adds one), and its search text (`/`).
    private var conditions: [FilterTermParam] = []
    private var search = ""
    /// The column the rows are grouped by (`g`), and a change to send with the next `watch`.
    /// The columns the rows are grouped by, outermost first.
    private var groupedBy: [String] = []
    private var sectionsChange: ScrollRequest.Sections?
    /// This view's own column state: columns hidden (`h`), and the order columns are shown in
    /// (`<`, `>`), sent with every layout and `watch`.
    private var hidden: [String] = []
    private var order: [String] = []

    /// Rows in the view: those the filter shows, or the table's.
    private var shownRows: Int { window.window["shown"]?.intValue ?? window.window["total"]?.intValue ?? 0 }

    init(table: String, socketPath: String, terminal: Terminal) throws {
        self.table = table
        self.terminal = terminal
        session = try DaemonSession(path: socketPath, printReplies: false)
        // The watch's notifications that come while a request waits for its reply are kept, to
        // be applied in order before it.
        session.keepsNotifications = true
    }

    /// Runs until the user quits.
    func run() throws {
        // The first layout of a large table measures every row: say so meanwhile.
        terminal.write("\u{1B}[H\u{1B}[2Jloading \(table)…")
        try refresh(.cursor)
        while running {
            let now = ContinuousClock.now
            fresh = fresh.filter { now - $0.value < Self.freshFor }
            draw()
            let waitMilliseconds: Int32 = fresh.isEmpty ? 1000 : 100
            var pollers = [
                pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                pollfd(fd: session.descriptor, events: Int16(POLLIN), revents: 0),
            ]
            let ready = session.hasBufferedLine ? 0 : poll(&pollers, 2, waitMilliseconds)
            if ready > 0, pollers[0].revents != 0 {
                terminal.fill()
                // One key at a time, each seeing the window the one before left.
                while running, let key = terminal.nextKey() {
                    if let after = try handle(key) { try refresh(after) }
                }
            } else if ready > 0, pollers[1].revents != 0 {
                // No request read from the connection since the poll: a line (or its end) is there.
                try receive(session.nextNotification())
            }
            // What came meanwhile (kept while requests waited for their replies, or read with them).
            while running, session.hasBufferedLine { try receive(session.nextNotification()) }
            if running, resync || terminal.size != size { try refresh(.anchored) }
        }
    }

    // MARK: The watched window

    /// Applies a `window` notification of the watch to the window held; the cursor stays on its
    /// row. A watch that ended (its table dropped, or no longer readable) ends the viewer.
    private func receive(_ notification: JSONValue) throws {
        guard notification["method"]?.stringValue == "window", let params = notification["params"],
            watchID != nil, params["watch"]?.intValue == watchID
        else { return }
        if let reason = params["ended"]?.stringValue {
            throw DaemonSession.Refused(message: reason, kind: "watch_ended")
        }
        guard take(try JSONDecoder().decode(WindowDelta.self, from: JSONEncoder().encode(params))) else { return }
        settle(.anchored, arrived: countNewAbove(looked: false))
    }

    /// Applies `delta` to the window held, unless one went missing before it (then the window
    /// held is no longer right: the next refresh starts a new watch). The rows it adds that the
    /// table added (or changed) since the window held, rather than rows that came into it as it
    /// moved or as others left, are drawn bold for a while.
    private func take(_ delta: WindowDelta) -> Bool {
        guard !resync, delta.seq == seq + 1 else {
            resync = true
            return false
        }
        seq = delta.seq
        let version = held["version"]?.intValue ?? 0
        let now = ContinuousClock.now
        for row in delta.added ?? [] where (row["version"]?.intValue ?? 0) > version {
            if let id = row["id"] { fresh[id] = now }
        }
        delta.apply(to: &held)
        return true
    }

    /// The rows that came above the view since last counted (the window's `newAbove`), added
    /// to the count the status line shows; after a move (`looked`) the daemon counts from 0.
    private func countNewAbove(looked: Bool) -> Int {
        let seen = held["newAbove"]?.intValue ?? 0
        let arrived = max(0, seen - newAboveCounted)
        newAbove += arrived
        newAboveCounted = looked ? 0 : seen
        return arrived
    }

    /// After the window held changed: the cursor on its row (`anchored`, or moved down by the
    /// rows that `arrived` above when its row is out of the window) or at its index, the
    /// new-rows count cleared at the top, and the sort fetched again when the window marks
    /// other columns sorted.
    private func settle(_ placement: Placement, arrived: Int) {
        if placement == .anchored, let id = cursorID, let row = window.rows.first(where: { $0["id"] == id }) {
            cursor = row["index"]?.intValue ?? cursor
        } else if placement == .anchored {
            cursor += arrived
        }
        cursor = max(0, min(cursor, shownRows - 1))
        if (held["viewport"]?["y"]?.intValue ?? 0) == 0 { newAbove = 0 }
        cursorID = window.rows.first { $0["index"]?.intValue == cursor }?["id"]
        let marks = (held["columns"]?.arrayValue ?? []).compactMap { column in
            column["sort"]?.stringValue.map { "\(column["key"]?.stringValue ?? "") \($0)" }
        }
        if marks != sortMarks {
            sortMarks = marks
            sortKeys = (try? session.send(DescribeRequest(table: table), quiet: true).sort) ?? sortKeys
        }
    }

    // MARK: Keys

    /// Acts on a key; returns how to move the view afterwards, if at all.
    private func handle(_ key: Terminal.Key) throws -> Placement? {
        if prompt != nil { return try handlePrompt(key) }
        if pickList != nil { return try handlePickList(key) }
        if showingKeys {
            // Any key closes the list; q and Ctrl-C still quit.
            showingKeys = false
            if key == .character("q") || key == .control(3) { running = false }
            return nil
        }
        // The columns' places as they are now: the table may have changed since the last move.
        try updatePlan()
        let total = shownRows
        let page = max(1, window.rows.count - 1)
        switch key {
        case .character("q"), .control(3):
            running = false
            return nil
        case .escape:
            message = message == nil ? ("q quits · ? lists the keys", false) : nil
            return nil
        case .character("?"):
            showingKeys = true
            message = nil
            return nil
        case .up: cursor -= 1
        case .down: cursor += 1
        case .pageUp: cursor -= page
        case .pageDown: cursor += page
        case .home: cursor = 0
        case .end: cursor = total - 1
        case .left: moveColumn(by: -1)
        case .right: moveColumn(by: 1)
        case .character(" "):
            if let id = cursorID { try act { try $0.send(SelectRequest(table: $1, action: .toggle, ids: [id])) } }
        case .character("a"):
            // With a filter, `a` selects the rows it shows.
            let all = (window.window["selected"]?.intValue ?? 0) >= total && total > 0
            let filtered = window.window["shown"] != nil
            try act {
                try $0.send(
                    SelectRequest(
                        table: $1,
                        action: all ? SelectionAction.none : .all,
                        view: all || !filtered ? nil : true
                    )
                )
            }
        case .character("s"): try cycleSort()
        case .character("e"): try startEdit()
        case .character("+"): try startAdd()
        case .character("/"):
            prompt = Prompt(label: "search", text: search) { viewer, text in
                try viewer.applyFilter(conditions: viewer.conditions, search: text)
            }
        case .character("f"): try openPickList()
        case .character("F"): try applyFilter(conditions: [], search: "")
        case .character("d"):
            let selected = window.window["selected"]?.intValue ?? 0
            guard selected > 0 else {
                message = ("select rows first (space, a)", false)
                return nil
            }
            try act { session, table in
                let reply = try session.send(DeleteRequest(table: table, selection: true))
                self.message = ("deleted \(Output.count(reply.deleted, "row")) · u undoes", false)
            }
            return .anchored
        case .character("y"):
            guard (window.window["selected"]?.intValue ?? 0) > 0 else {
                message = ("select rows first (space, a)", false)
                return nil
            }
            try act { session, table in
                let copied = try session.send(CopyRequest(table: table))
                // OSC 52: the terminal puts the text on the system clipboard.
                self.terminal.write("\u{1B}]52;c;" + Data(copied.tsv.utf8).base64EncodedString() + "\u{07}")
                self.message = ("copied \(Output.count(copied.rows, "row")) to the clipboard", false)
            }
            return nil
        case .character("u"), .character("U"):
            let redo = key == .character("U")
            try act { session, table in
                let reply =
                    redo ? try session.send(RedoRequest(table: table)) : try session.send(UndoRequest(table: table))
                self.message = (Self.describe(reply, redo: redo), false)
            }
            return .anchored
        case .character("h"):
            guard column < columnKeys.count, columnKeys.count > 1 else { return nil }
            let key = columnKeys[column]
            hidden.append(key)
            message = ("hid \(label(of: key)) in this view · H shows every column", false)
            planKey = ""
            column = max(0, column - 1)
            return .anchored
        case .character("H"):
            guard !hidden.isEmpty else { return nil }
            hidden = []
            message = ("every column shown", false)
            planKey = ""
            return .anchored
        case .character("<"), .character(">"):
            try moveCursorColumn(by: key == .character("<") ? -1 : 1)
            return .anchored
        case .character("g"):
            guard column < columnKeys.count else { return nil }
            let key = columnKeys[column]
            if let level = groupedBy.firstIndex(of: key) {
                groupedBy.remove(at: level)
            } else {
                guard groupedBy.count < 4 else {
                    message = ("groups nest by at most 4 columns · g on a grouped column ungroups it", true)
                    return nil
                }
                groupedBy.append(key)
            }
            sectionsChange = ScrollRequest.Sections(
                column: groupedBy.count == 1 ? groupedBy[0] : nil,
                columns: groupedBy.count > 1 ? groupedBy : nil
            )
            if !groupedBy.isEmpty {
                // Each number and duration column is summed per group and over every row.
                let described = try session.send(DescribeRequest(table: table))
                let summed = described.columns.filter { $0.type == .number || $0.type == .duration }
                if !summed.isEmpty {
                    sectionsChange?.aggregates = Dictionary(
                        uniqueKeysWithValues: summed.map { ($0.key, ScrollRequest.AggregateFunctions([.sum])) }
                    )
                    sectionsChange?.grandTotal = .pinnedBottom
                }
            }
            let levels = groupedBy.map(label(of:)).joined(separator: " › ")
            message = (
                groupedBy.isEmpty ? "not grouped" : "grouped by \(levels) · c collapses a group, C expands all", false
            )
            cursor = 0
        case .character("c"):
            guard let path = cursorGroup() else {
                message = ("group the rows first (g)", false)
                return nil
            }
            try act { session, table in
                _ = try session.send(CollapseRequest(table: table, group: path.map(JSONValue.string)))
                self.message = ("collapsed \(path.joined(separator: " › ")) · C expands all", false)
            }
            return .cursor
        case .character("C"):
            guard !groupedBy.isEmpty else { return nil }
            try act { session, table in
                _ = try session.send(ExpandRequest(table: table, all: true))
                self.message = ("every group expanded", false)
            }
            return .anchored
        default: return nil
        }
        cursor = max(0, min(cursor, total - 1))
        if cursor == 0 { newAbove = 0 }
        return .cursor
    }

    private func handlePrompt(_ key: Terminal.Key) throws -> Placement? {
        guard var current = prompt else { return nil }
        switch key {
        case .escape, .control(3):
            prompt = nil
        case .enter:
            prompt = nil
            do {
                try current.submit(self, current.text)
            } catch let refused as DaemonSession.Refused {
                message = (refused.message, true)
            }
            return .cursor
        case .backspace:
            if !current.text.isEmpty { current.text.removeLast() }
            prompt = current
        case .character(let character):
            current.text.append(character)
            prompt = current
        default: break
        }
        return nil
    }

    /// Sends the request `send` makes (given the session and the table); the status message is
    /// what `send` sets, if anything, and an error reply's message.
    /// The titles of the innermost group holding the cursor row, outermost first: of the last
    /// header drawn above it.
    private func cursorGroup() -> [String]? {
        guard !groupedBy.isEmpty, let id = cursorID, let row = window.rows.first(where: { $0["id"] == id }),
            let y = row["y"]?.intValue
        else { return nil }
        let above = (window.window["sections"]?["shown"]?.arrayValue ?? []).filter {
            ($0["y"]?.intValue ?? .max) < y && ($0["level"]?.intValue ?? 0) == groupedBy.count - 1
        }
        guard let header = above.max(by: { ($0["y"]?.intValue ?? 0) < ($1["y"]?.intValue ?? 0) }) else { return nil }
        return header["path"]?.arrayValue?.compactMap(\.stringValue) ?? header["title"]?.stringValue.map { [$0] }
    }

    private func act(_ send: (DaemonSession, String) throws -> Void) throws {
        do {
            message = nil
            try send(session, table)
        } catch let refused as DaemonSession.Refused {
            message = (refused.message, true)
        }
    }

    private func startEdit() throws {
        guard let id = cursorID, column < columnKeys.count else { return }
        let key = columnKeys[column]
        let described = try session.send(DescribeRequest(table: table), quiet: true)
        if let expression = described.columns.first(where: { $0.key == key })?.expression {
            // A computed column is read-only: say what it is computed from instead.
            message = ("\(label(of: key)) is computed: \(expression) (read-only)", false)
            return
        }
        let shown = window.rows.first { $0["id"] == id }
        let position = window.window["columns"]?.arrayValue?.firstIndex { $0["key"]?.stringValue == key }
        let current =
            shown?["drafts"]?[key]?["text"]?.stringValue
            ?? position.flatMap { shown?["cells"]?.arrayValue?[$0].stringValue } ?? ""
        prompt = Prompt(label: "edit \(label(of: key))", text: current) { viewer, text in
            viewer.message = nil
            try viewer.session.send(EditRequest(table: viewer.table, id: id, column: key, value: .cell(text)))
        }
    }

    /// A new row: asks for each required column in turn (the first column when none is
    /// required), then adds it; the cursor goes to it.
    private func startAdd() throws {
        let described = try session.send(DescribeRequest(table: table))
        let typed = described.columns.filter { $0.expression == nil && $0.editable != false }
        var asked = typed.filter { $0.required == true }.map(\.key)
        if asked.isEmpty, let first = columnKeys.first(where: { key in typed.contains { $0.key == key } }) {
            asked = [first]
        }
        guard !asked.isEmpty else { return }
        askForCell(of: asked, given: [:])
    }

    /// Prompts for the first of `keys`, then for the rest, and adds the row with `given` and
    /// what was typed.
    private func askForCell(of keys: [String], given: [String: JSONValue]) {
        let key = keys[0]
        let step = keys.count > 1 || !given.isEmpty ? " (\(given.count + 1) of \(given.count + keys.count))" : ""
        prompt = Prompt(label: "new row — \(label(of: key))\(step)", text: "") { viewer, text in
            var cells = given
            cells[key] = .cell(text)
            guard keys.count == 1 else {
                viewer.askForCell(of: Array(keys.dropFirst()), given: cells)
                return
            }
            let reply = try viewer.session.send(AddRequest(table: viewer.table, row: .object(cells)))
            if let index = reply.added.first?.index { viewer.cursor = index }
            viewer.message = ("added a row", false)
        }
    }

    /// What an undo or redo did, in a few words for the status line.
    private static func describe(_ reply: UndoResponse, redo: Bool) -> String {
        var parts: [String] = []
        if !reply.cells.isEmpty { parts.append(Output.count(reply.cells.count, "cell") + " set") }
        if let back = reply.restored { parts.append(Output.count(back.count, "row") + " back") }
        if let out = reply.removed { parts.append(Output.count(out.count, "row") + " out") }
        if let altered = reply.altered { parts.append("columns: " + Alter.describe(altered)) }
        let done = redo ? "redone" : "undone"
        return parts.isEmpty ? done : "\(done): " + parts.joined(separator: ", ")
    }

    /// Moves the cursor's column one place left or right in this view's column order (past
    /// the next column shown: hidden ones keep their places).
    private func moveCursorColumn(by step: Int) throws {
        let shown = columnKeys
        let target = column + step
        guard column < shown.count, target >= 0, target < shown.count else { return }
        // Every column of the table, in this view's order: the columns may have changed since.
        let keys = try session.send(DescribeRequest(table: table), quiet: true).columns.map(\.key)
        order = order.filter(keys.contains) + keys.filter { !order.contains($0) }
        guard let from = order.firstIndex(of: shown[column]), let to = order.firstIndex(of: shown[target]) else {
            return
        }
        order.swapAt(from, to)
        column = target
        planKey = ""
        message = ("moved \(label(of: shown[column - step])) in this view", false)
    }

    /// This view's own column state as `layout` and `watch` take it.
    private var columnState: (columns: [String: ColumnHints], order: [String]) {
        (Dictionary(uniqueKeysWithValues: hidden.map { ($0, ColumnHints(hidden: true)) }), order)
    }

    /// Opens the pick list of the cursor's column, the cursor row's value highlighted: Enter
    /// then keeps the rows with that value (an empty cell: the rows empty there).
    private func openPickList() throws {
        guard column < columnKeys.count else { return }
        let key = columnKeys[column]
        var list = PickList(column: key, label: label(of: key))
        let value = try cursorID.flatMap { id in
            try session.send(GetRequest(table: table, ids: [id], columns: [key])).rows.first?.values[key] ?? .null
        }
        try act { session, table in
            list.take(try session.send(list.request(table: table)), highlighting: value)
            self.pickList = list
        }
    }

    /// Lines of the pick list on screen: the rows' area below the header, less its title.
    private var pickListHeight: Int { max(1, size.rows - 1 - window.headerCanvases().count - 1) }

    private func handlePickList(_ key: Terminal.Key) throws -> Placement? {
        guard var list = pickList else { return nil }
        let height = pickListHeight
        switch key {
        case .escape, .control(3):
            pickList = nil
            return nil
        case .up: list.move(by: -1, height: height)
        case .down: list.move(by: 1, height: height)
        case .pageUp: list.move(by: -height, height: height)
        case .pageDown: list.move(by: height, height: height)
        case .home: list.move(by: -list.values.count, height: height)
        case .end: list.move(by: list.values.count, height: height)
        case .character(" "): list.toggleHighlighted()
        case .enter:
            pickList = nil
            guard let term = list.term else { return nil }
            // The column's own terms give way to the pick; the others stay.
            try applyFilter(conditions: conditions.filter { !$0.reads(list.column) } + [term], search: search)
            return .cursor
        case .backspace, .character(_):
            if case .character(let typed) = key {
                list.prefix.append(typed)
            } else if !list.prefix.isEmpty {
                list.prefix.removeLast()
            }
            try act { session, table in list.take(try session.send(list.request(table: table))) }
        default: return nil
        }
        pickList = list
        return nil
    }

    /// Sets this viewer's filter; the cursor goes to the first row it shows.
    private func applyFilter(conditions: [FilterTermParam], search: String) throws {
        try act { session, table in
            let reply = try session.send(FilterRequest(table: table, where: conditions, search: search))
            self.conditions = reply.where
            self.search = reply.search
            self.cursor = 0
            self.message = (reply.filter.isEmpty ? "every row" : "\(reply.shown) of \(reply.total) rows", false)
        }
    }

    /// Sort by the cursor's column ascending, then descending, then not at all; the cursor
    /// stays on its row wherever the sort puts it.
    private func cycleSort() throws {
        guard column < columnKeys.count else { return }
        let key = columnKeys[column]
        let first = try session.send(DescribeRequest(table: table)).sort.first
        var keys = [SortKeyParam(column: key, descending: false)]
        if first?.column == key {
            keys = first?.descending == true ? [] : [SortKeyParam(column: key, descending: true)]
        }
        try act { try $0.send(SortRequest(table: $1, keys: keys)) }
        sortKeys = keys
        if let id = cursorID,
            let row = try? session.send(GetRequest(table: table, ids: [id], columns: [key])).rows.first
        {
            cursor = row.index
        }
        message = (keys.isEmpty ? "in the table's own order" : "sorted by \(label(of: key))", false)
    }

    // MARK: Columns

    /// The shown columns' keys, left to right.
    private var columnKeys: [String] {
        (plan["columns"]?.arrayValue ?? []).filter { $0["omitted"]?.boolValue != true }.compactMap {
            $0["key"]?.stringValue
        }
    }

    private func label(of key: String) -> String {
        let column = plan["columns"]?.arrayValue?.first { $0["key"]?.stringValue == key }
        return column?["header"]?.arrayValue?.compactMap(\.stringValue).joined(separator: " ") ?? key
    }

    /// Moves the cursor's column and scrolls sideways to keep it in sight (past the sticky
    /// column, before the right edge).
    private func moveColumn(by step: Int) {
        let shown = (plan["columns"]?.arrayValue ?? []).filter { $0["omitted"]?.boolValue != true }
        guard !shown.isEmpty else { return }
        column = max(0, min(shown.count - 1, column + step))
        guard plan["horizontalScroll"]?.boolValue == true, let left = shown[column]["x"]?.intValue else { return }
        let width = shown[column]["width"]?.intValue ?? 0
        let stickyKey = plan["sticky"]?["column"]?.stringValue
        if shown[column]["key"]?.stringValue == stickyKey {
            x = 0
            return
        }
        let stickyEdge =
            (plan["accessories"]?["left"]?["width"]?.intValue ?? 0) + (plan["sticky"]?["minWidth"]?.intValue ?? 0)
        if left - x < stickyEdge { x = max(0, left - stickyEdge) }
        if left + width - x > size.columns { x = left + width - size.columns }
    }

    // MARK: Scrolling and drawing

    /// The layout for the window's size and this view's columns, fetched again when either or
    /// the table changed since.
    private func updatePlan() throws {
        let compact = size.columns < 60
        let key = "\(size.columns)×\(size.rows) \(held["version"]?.text ?? "")"
        guard key != planKey else { return }
        var layout = LayoutRequest(
            table: table,
            width: Double(size.columns),
            sizeClass: compact ? .compact : .regular,
            horizontalScroll: !compact,
            unit: .cell
        )
        layout.columns = columnState.columns
        layout.columnOrder = columnState.order
        plan = try session.sendForJSON(layout)
        planKey = key
        column = min(column, max(0, columnKeys.count - 1))
    }

    /// Moves or reshapes the watched view (the first time: makes the watch) for the terminal's
    /// size, placed as `placement` says, and takes the reply into the window held.
    private func refresh(_ placement: Placement) throws {
        if resync {
            // A delta went missing: a new watch gives the whole window.
            if let id = watchID { try session.send(UnwatchRequest(watch: id)) }
            _ = session.takeKeptNotifications()
            (watchID, seq, resync) = (nil, 0, false)
        }
        size = terminal.size
        try updatePlan()
        let compact = size.columns < 60
        let viewport = ScrollRequest.Viewport(
            x: Double(x),
            y: placement == .anchored && cursorID == nil ? 0 : nil,
            width: Double(size.columns),
            height: Double(max(2, size.rows - 1))
        )
        var request = ScrollRequest(table: table, viewport: viewport, unit: .cell)
        request.sections = sectionsChange
        sectionsChange = nil
        request.sizeClass = compact ? .compact : .regular
        request.horizontalScroll = !compact
        request.columns = columnState.columns
        request.columnOrder = columnState.order
        if placement == .cursor { request.to = ScrollRequest.Target(index: cursor, align: .nearest) }
        var arrived: Int
        do {
            arrived = try watch(request)
        } catch let refused as DaemonSession.Refused where refused.field == "params.to.index" {
            // The view shrank under the cursor: go to its end (or the top of an empty view).
            request.to = nil
            request.viewport?.y = nil
            arrived = try watch(request)
            let rows = shownRows
            cursor = max(0, rows - 1)
            request.to = rows == 0 ? nil : ScrollRequest.Target(index: cursor, align: .nearest)
            if rows == 0 { request.viewport?.y = 0 }
            arrived += try watch(request)
        }
        x = held["viewport"]?["x"]?.intValue ?? 0
        settle(placement, arrived: arrived)
    }

    /// Sends `request` as a `watch` and takes its reply (a delta from the window held, or the
    /// whole window) into the window held, after the notifications that came before it; returns
    /// how many rows came above the view meanwhile.
    private func watch(_ request: ScrollRequest) throws -> Int {
        let reply = try session.send(WatchRequest(scroll: request, watch: watchID))
        var arrived = 0
        for notification in session.takeKeptNotifications() {
            guard notification["method"]?.stringValue == "window", let params = notification["params"],
                watchID != nil, params["watch"]?.intValue == watchID
            else { continue }
            if let reason = params["ended"]?.stringValue {
                throw DaemonSession.Refused(message: reason, kind: "watch_ended")
            }
            if take(try JSONDecoder().decode(WindowDelta.self, from: JSONEncoder().encode(params))) {
                arrived += countNewAbove(looked: false)
            }
        }
        if let delta = reply.delta {
            _ = take(delta)
        } else if let whole = reply.window {
            // A new watch starts at 0; moving one counts a delta even when the reply is whole.
            held = whole
            seq = watchID == nil ? 0 : seq + 1
            fresh = [:]
        }
        watchID = reply.watch
        return arrived + countNewAbove(looked: true)
    }

    /// One frame: header (underlined once rows scrolled under it), rows (the cursor row in
    /// reverse, drafts red and underlined, rows just added bold), the status line.
    private func draw() {
        var lines: [String] = []
        let cursorKey = column < columnKeys.count ? columnKeys[column] : nil
        let columns = window.window["columns"]?.arrayValue ?? []
        let shadow = window.window["header"]?["shadow"]?.boolValue == true
        let headers = window.headerCanvases()
        let contentWidth = window.window["contentWidth"]?.intValue ?? 0
        let continues = contentWidth - (window.window["viewport"]?["x"]?.intValue ?? 0) > size.columns
        for (line, var canvas) in headers.enumerated() {
            if line == 0 {
                // ▲ / ▼ at the right of the sorted column's header; › where columns go on past the edge.
                for key in sortKeys.prefix(1) {
                    guard let placed = columns.first(where: { $0["key"]?.stringValue == key.column }),
                        let left = placed["x"]?.intValue, let width = placed["width"]?.intValue, width > 1
                    else { continue }
                    // At the end away from the label: the left edge of a right-aligned column.
                    let edge = placed["align"]?.stringValue == "trailing" ? left : left + width - 1
                    canvas.write(key.descending == true ? "▼" : "▲", x: edge, width: 1)
                }
                if continues { canvas.write("›", x: size.columns - 1, width: 1) }
            }
            canvas.style(x: 0, width: size.columns, shadow ? "1;4" : "1")
            if let position = columns.firstIndex(where: { $0["key"]?.stringValue == cursorKey }) {
                canvas.style(
                    x: columns[position]["x"]?.intValue ?? 0,
                    width: columns[position]["width"]?.intValue ?? 0,
                    shadow ? "1;4;7" : "1;7"
                )
            }
            lines.append(canvas.styledText)
        }
        let height = max(2, size.rows - 1)
        // Rows and section headers go where the daemon puts them (sections leave lines between
        // rows for their headers).
        var screen = lines + Array(repeating: "", count: max(0, height - lines.count))
        for row in window.rows {
            let isCursor = row["id"] == cursorID
            let isFresh = row["id"].map { fresh[$0] != nil } ?? false
            let isSelected = row["selected"]?.boolValue == true
            let marker = isSelected ? "[x]" : "[ ]"
            // Without a checkbox (the list report in a narrow terminal), a selected row is underlined.
            let hasCheckbox = window.window["accessories"]?["left"]?["kind"]?.stringValue == "checkbox"
            let y = row["y"]?.intValue ?? 0
            for (line, var canvas) in window.rowCanvases(row, marker: marker).enumerated() {
                guard y + line >= headers.count else { continue }
                if isFresh { canvas.style(x: 0, width: size.columns, "1;33") }
                if isSelected && !hasCheckbox { canvas.style(x: 0, width: size.columns, isCursor ? "4;7" : "4") }
                if isCursor && !(isSelected && !hasCheckbox) { canvas.style(x: 0, width: size.columns, "7") }
                for key in (row["drafts"]?.objectValue ?? [:]).keys {
                    guard let position = columns.firstIndex(where: { $0["key"]?.stringValue == key }) else { continue }
                    canvas.style(
                        x: columns[position]["x"]?.intValue ?? 0,
                        width: columns[position]["width"]?.intValue ?? 0,
                        isCursor ? "7;4;31" : "4;31"
                    )
                }
                if y + line < height { screen[y + line] = canvas.styledText }
            }
        }
        // Nested headers first, so that one pushed up under its parent's is drawn over by it.
        let sections = (window.window["sections"]?["shown"]?.arrayValue ?? []).sorted {
            ($0["level"]?.intValue ?? 0) > ($1["level"]?.intValue ?? 0)
        }
        for section in sections {
            guard let y = section["y"]?.intValue, y >= headers.count, y < height else { continue }
            let title = section["title"]?.stringValue ?? ""
            let count = section["count"]?.intValue ?? 0
            let indent = String(repeating: "  ", count: section["level"]?.intValue ?? 0)
            let mark = section["collapsed"]?.boolValue == true ? "▸ " : (groupedBy.count > 1 ? "▾ " : "")
            var canvas = WindowText.Canvas(width: size.columns)
            canvas.write(
                " \(indent)\(mark)\(title.isEmpty ? "(none)" : title) · \(Output.count(count, "row"))",
                x: 0,
                width: size.columns
            )
            Self.writeAggregates(section["aggregates"]?.arrayValue ?? [], under: columns, on: &canvas)
            canvas.style(x: 0, width: size.columns, "1;4")
            screen[y] = canvas.styledText
        }
        if let total = window.window["sections"]?["grandTotal"], let y = total["y"]?.intValue, y >= headers.count,
            y < height
        {
            var canvas = WindowText.Canvas(width: size.columns)
            canvas.write(" Total · \(Output.count(shownRows, "row"))", x: 0, width: size.columns)
            Self.writeAggregates(total["aggregates"]?.arrayValue ?? [], under: columns, on: &canvas)
            canvas.style(x: 0, width: size.columns, "1;7")
            screen[y] = canvas.styledText
        }
        if showingKeys {
            // The key list in place of the rows.
            let listed = keyListLines(width: size.columns)
            for line in headers.count..<height {
                let index = line - headers.count
                screen[line] = index < listed.count ? listed[index] : ""
            }
        }
        if let pickList {
            // The pick list in place of the rows.
            let listed = pickList.lines(width: size.columns, height: height - headers.count)
            for line in headers.count..<height {
                let index = line - headers.count
                screen[line] = index < listed.count ? listed[index] : ""
            }
        }
        lines = Array(screen.prefix(height))
        lines.append(statusLine())
        terminal.write("\u{1B}[H" + lines.map { $0 + "\u{1B}[K" }.joined(separator: "\r\n"))
    }

    /// Writes each aggregate's text at the right edge of its column, where the column is on screen.
    private static func writeAggregates(
        _ aggregates: [JSONValue],
        under columns: [JSONValue],
        on canvas: inout WindowText.Canvas
    ) {
        for aggregate in aggregates {
            guard let key = aggregate["column"]?.stringValue, let text = aggregate["text"]?.stringValue,
                let column = columns.first(where: { $0["key"]?.stringValue == key }),
                let x = column["x"]?.intValue, let width = column["width"]?.intValue
            else { continue }
            let shown = DisplayWidth.cells(text)
            guard shown <= width else { continue }
            canvas.write(text, x: x + width - shown, width: shown)
        }
    }

    /// The last line: the prompt while the user types, else the window's status, the new-rows
    /// indicator and a message or the keys; cut to the terminal's width.
    private func statusLine() -> String {
        var canvas = WindowText.Canvas(width: size.columns)
        if let prompt {
            let label = prompt.label + ": "
            canvas.write(label + prompt.text, x: 0, width: size.columns)
            canvas.style(x: 0, width: DisplayWidth.cells(label), "1")
            canvas.style(x: DisplayWidth.cells(label + prompt.text), width: 1, "7")
            return canvas.styledText
        }
        if showingKeys {
            canvas.write("keys · any key closes this list · q quits", x: 0, width: size.columns)
            canvas.style(x: 0, width: 4, "1")
            return canvas.styledText
        }
        if pickList != nil {
            let tail = message?.text ?? "↑↓ move · space marks · type to narrow · Enter keeps these rows · Esc leaves"
            canvas.write("pick · " + tail, x: 0, width: size.columns)
            canvas.style(x: 0, width: 4, "1")
            return canvas.styledText
        }
        // A filter bar: the view's filter in words, first.
        let filter = window.window["filter"]?.stringValue.map { "\($0) · " } ?? ""
        let status = filter + window.status(newAbove: newAbove) + " · "
        let hints =
            filter.isEmpty
            ? [
                "space select", "e edit", "+ add", "d delete", "u undo", "s sort", "/ search", "f filter", "g group",
                "h hide", "< > move",
            ]
            : ["F every row", "/ search", "f filter"]
        let tail =
            message?.text
            ?? Self.fitted(hints, ending: ["? keys", "q quit"], within: size.columns - DisplayWidth.cells(status))
        canvas.write(status + tail, x: 0, width: size.columns)
        if message?.isError == true { canvas.style(x: DisplayWidth.cells(status), width: size.columns, "1;31") }
        return canvas.styledText
    }

    /// As many of `hints` as fit in `room` cells, in order, then always `ending`: joined by " · ".
    static func fitted(_ hints: [String], ending: [String], within room: Int) -> String {
        var kept: [String] = []
        for hint in hints {
            let trial = (kept + [hint] + ending).joined(separator: " · ")
            guard DisplayWidth.cells(trial) <= room else { break }
            kept.append(hint)
        }
        return (kept + ending).joined(separator: " · ")
    }

    /// The key list, a key and what it does a line, the second column wrapped to `width`.
    private func keyListLines(width: Int) -> [String] {
        var list = TextTable(["key", "what it does"])
        for entry in Self.keys { list.add([entry.key, entry.does]) }
        return list.lines(fitting: width)
    }
}
