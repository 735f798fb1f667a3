import DataTableProtocol
import Foundation
import Glibc
import Testing

/// `datatable view` in a real terminal: tmux runs it in a pane of a fixed size, keys are sent
/// with `send-keys`, and the screen is read with `capture-pane`, as a person would see it.
@Suite(
    .serialized,
    .enabled(if: canRun(with: "tmux"), "tmux is not installed (scripts/install-dependencies installs it)")
)
struct ViewerTests {
    /// A tmux server of the test's own, one pane running the viewer.
    final class Pane {
        let tmux: String
        let server: String
        let daemon: TestDaemon

        /// A pane running the viewer on `table`, or `command` (a shell command line) instead.
        init(
            daemon: TestDaemon,
            columns: Int = 100,
            rows: Int = 30,
            table: String = "stock",
            command: String? = nil
        ) throws {
            tmux = try #require(which("tmux"), "tmux is needed (scripts/install-dependencies installs it)")
            self.daemon = daemon
            server = "dt-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            let viewer = command == nil
            let command =
                (command ?? "\(BuiltProducts.client) view \(table) --socket \(daemon.socketPath)") + "; sleep 30"
            let started = Self.spawn(
                tmux,
                ["-L", server, "-f", "/dev/null", "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", command]
            )
            #expect(started == 0, "tmux new-session exited with \(started)")
            if viewer {
                _ = try screen(until: { lines in lines.contains { $0.hasPrefix("rows ") || $0.hasPrefix("no rows ") } })
            }
        }

        /// Ends the tmux server and removes its socket, which `kill-server` leaves behind.
        deinit {
            _ = Self.spawn(tmux, ["-L", server, "kill-server"])
            let folder = ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp"
            unlink("\(folder)/tmux-\(getuid())/\(server)")
        }

        /// Runs `tool` with `arguments`, its input and output on /dev/null, and returns its exit
        /// status. tmux's server, forked from the client, keeps every descriptor the client had:
        /// a pipe (or anything else watching for the client's end) would never see it end.
        static func spawn(_ tool: String, _ arguments: [String]) -> Int32 {
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            for descriptor: Int32 in [0, 1, 2] {
                posix_spawn_file_actions_addopen(
                    &actions,
                    descriptor,
                    "/dev/null",
                    descriptor == 0 ? O_RDONLY : O_WRONLY,
                    0
                )
            }
            let argv: [UnsafeMutablePointer<CChar>?] =
                ([tool] + arguments).map { $0.withCString { strdup($0) } } + [nil]
            defer { for pointer in argv { free(pointer) } }
            let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
            let environment: [UnsafeMutablePointer<CChar>?] =
                ["TERM=xterm-256color", "PATH=\(path)"].map { $0.withCString { strdup($0) } } + [nil]
            defer { for pointer in environment { free(pointer) } }
            // The test's thread blocks signals (SIGHUP among them) and the spawned tmux server
            // and its panes would keep that mask: `kill-server` could then not end a pane, and
            // the server would outlive the test. Start them with no signal blocked or ignored.
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var none = sigset_t()
            sigemptyset(&none)
            posix_spawnattr_setsigmask(&attributes, &none)
            var all = sigset_t()
            sigfillset(&all)
            posix_spawnattr_setsigdefault(&attributes, &all)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
            var pid: pid_t = 0
            guard posix_spawn(&pid, tool, &actions, &attributes, argv, environment) == 0 else { return -1 }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            return (status >> 8) & 0xFF
        }

        /// Sends tmux key names ("Down", "End", "Space", "e") or text.
        func keys(_ names: String...) throws {
            _ = try run(tmux, ["-L", server, "send-keys", "-t", "0"] + names)
        }

        /// The screen's lines with their styles as escape sequences (`capture-pane -e`), once
        /// `ready` holds for them (or after `timeout`): a capture may catch a frame half drawn.
        func styledScreen(
            until ready: ([String]) -> Bool = { _ in true },
            timeout: Duration = .seconds(10)
        ) throws -> [String] {
            let deadline = ContinuousClock.now + timeout
            while true {
                let captured = try run(tmux, ["-L", server, "capture-pane", "-p", "-e", "-t", "0"])
                let lines = captured.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                if ready(lines) || ContinuousClock.now > deadline { return lines }
                usleep(50_000)
            }
        }

        /// The screen's lines, once `ready` holds for them (or after `timeout`); `joined`: a line
        /// the terminal wrapped is one line, as it was written.
        func screen(
            until ready: ([String]) -> Bool = { _ in true },
            timeout: Duration = .seconds(10),
            joined: Bool = false
        ) throws -> [String] {
            let deadline = ContinuousClock.now + timeout
            while true {
                let captured = try run(tmux, ["-L", server, "capture-pane", "-p", "-t", "0"] + (joined ? ["-J"] : []))
                let lines = captured.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                if ready(lines) || ContinuousClock.now > deadline { return lines }
                usleep(50_000)
            }
        }
    }

    static func demo(rows: Int) throws -> TestDaemon {
        try TestDaemon(arguments: ["--demo", "--demo-rows", "\(rows)"])
    }

    /// Status line: the last line with text.
    static func status(_ lines: [String]) -> String { lines.last { !$0.isEmpty } ?? "" }

    @Test func endJumpsToTheLastRowsWithTheHeaderStillOnTop() throws {
        let pane = try Pane(daemon: try Self.demo(rows: 5000))
        let first = try pane.screen()
        #expect(first[0].contains("Item") && first[0].contains("Rack") && first[0].contains("Qty"))
        #expect(Self.status(first).hasPrefix("rows 1–"))
        try pane.keys("End")
        let end = try pane.screen(until: { Self.status($0).contains("of 5000") && Self.status($0).contains("–5000") })
        #expect(end[0].contains("Item") && end[0].contains("Rack"))
        #expect(Self.status(end).hasPrefix("rows 4973–5000 of 5000"), "\(Self.status(end))")
        try pane.keys("PageUp", "PageUp")
        let up = try pane.screen(until: { !Self.status($0).contains("–5000 ") })
        #expect(up[0].contains("Item"))
        #expect(Self.status(up).hasPrefix("rows 4946–4973 of 5000"), "\(Self.status(up))")
    }

    @Test func theFirstColumnStaysWhenScrollingRight() throws {
        let pane = try Pane(daemon: try Self.demo(rows: 10), columns: 60, rows: 15)
        let before = try pane.screen()
        #expect(before[1].hasPrefix("[ ]"))
        #expect(before[0].contains("Rack"))
        try pane.keys("Right", "Right", "Right", "Right", "Right", "Right", "Right")
        let after = try pane.screen(until: { !$0[0].contains("Rack") })
        #expect(!after[0].contains("Rack"), "\(after[0])")
        #expect(after[0].contains("Item"))
        #expect(after.contains { $0.hasPrefix("[ ]Servo Motor") }, "\(after)")
    }

    @Test func spaceSelectsTheRowUnderTheCursor() throws {
        let pane = try Pane(daemon: try Self.demo(rows: 10), rows: 15)
        try pane.keys("Down", "Space")
        let lines = try pane.screen(until: { Self.status($0).contains("1 selected") })
        #expect(lines[2].hasPrefix("[x]Copper Pipe"), "\(lines[2])")
        #expect(lines[1].hasPrefix("[ ]Servo Motor"))
        try pane.keys("a")
        let all = try pane.screen(until: { Self.status($0).contains("10 selected") })
        #expect(all[1...10].allSatisfy { $0.hasPrefix("[x]") })
    }

    /// `y` copies the selected rows as the view shows them to the terminal's clipboard through
    /// OSC 52 (here tmux's paste buffer, with `set-clipboard on`); with none selected it says so.
    @Test func yCopiesTheSelectionThroughTheTerminal() throws {
        let pane = try Pane(daemon: try Self.demo(rows: 10), rows: 15)
        _ = try run(pane.tmux, ["-L", pane.server, "set-option", "-g", "set-clipboard", "on"])
        try pane.keys("y")
        _ = try pane.screen(until: { Self.status($0).contains("select rows first") })
        try pane.keys("Space", "Down", "Space")
        _ = try pane.screen(until: { Self.status($0).contains("2 selected") })
        try pane.keys("y")
        let copied = try pane.screen(until: { Self.status($0).contains("copied 2 rows") })
        #expect(Self.status(copied).contains("copied 2 rows to the clipboard"), "\(Self.status(copied))")
        let buffer = try run(pane.tmux, ["-L", pane.server, "show-buffer"]).output
        let lines = buffer.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(buffer)")
        #expect(lines.first?.hasPrefix("Item\tRack\tQty") == true, "\(buffer)")
        #expect(lines.dropFirst().allSatisfy { $0.split(separator: "\t").count >= 7 }, "\(buffer)")
    }

    /// `d` deletes the selected rows, `u` brings them back (selected, where they were), `U`
    /// deletes them again.
    @Test func deleteThenUndoBringsTheRowsBackSelected() throws {
        let pane = try Pane(daemon: try Self.demo(rows: 10), rows: 15)
        try pane.keys("Down", "Space")
        _ = try pane.screen(until: { Self.status($0).contains("1 selected") })
        try pane.keys("d")
        let deleted = try pane.screen(until: { Self.status($0).contains("deleted 1 row") })
        #expect(Self.status(deleted).contains("of 9"), "\(Self.status(deleted))")
        #expect(!deleted.contains { $0.contains("Copper Pipe") })
        try pane.keys("u")
        let back = try pane.screen(until: { Self.status($0).contains("undone: 1 row back") })
        #expect(back[2].hasPrefix("[x]Copper Pipe"), "\(back[2])")
        #expect(Self.status(back).contains("of 10") && Self.status(back).contains("1 selected"))
        try pane.keys("U")
        let again = try pane.screen(until: { Self.status($0).contains("redone: 1 row out") })
        #expect(!again.contains { $0.contains("Copper Pipe") })
    }

    /// `h` hides the cursor's column and `>` moves a column right, in this view only; `H` shows
    /// every column again.
    @Test func hideAndMoveAColumnInThisViewOnly() throws {
        let daemon = try Self.demo(rows: 10)
        let pane = try Pane(daemon: daemon, columns: 100, rows: 15)
        let before = try pane.screen()
        #expect(before[0].contains("Rack") && before[0].contains("Qty"))
        try pane.keys("Right", "h")
        let hidden = try pane.screen(until: { Self.status($0).contains("hid Rack") })
        #expect(!hidden[0].contains("Rack") && hidden[0].contains("Item"), "\(hidden[0])")
        // Another connection's view still shows it.
        let other = try daemon.connect().send(LayoutRequest(table: "stock", width: 100, unit: .cell))
        let keys = other.columns.map(\.key)
        #expect(keys.contains("rack"), "\(keys)")
        // The cursor is on Item again: `>` puts Qty before it.
        try pane.keys(">")
        let moved = try pane.screen(until: { Self.status($0).contains("moved Item") })
        let qty = try #require(moved[0].range(of: "Qty")), item = try #require(moved[0].range(of: "Item"))
        #expect(qty.lowerBound < item.lowerBound, "\(moved[0])")
        try pane.keys("H")
        let shown = try pane.screen(until: { Self.status($0).contains("every column shown") })
        #expect(shown[0].contains("Rack"), "\(shown[0])")
    }

    @Test func anInvalidEditShowsItsErrorAndTheDraft() throws {
        let pane = try Pane(daemon: try Self.demo(rows: 10), rows: 15)
        try pane.keys("Right", "Right", "e")
        let prompt = try pane.screen(until: { Self.status($0).hasPrefix("edit Qty:") })
        #expect(Self.status(prompt) == "edit Qty: 3")
        try pane.keys("BSpace", "lots", "Enter")
        let lines = try pane.screen(until: { Self.status($0).contains("1 error") })
        #expect(Self.status(lines).contains("Enter a number"), "\(Self.status(lines))")
        #expect(lines[1].contains("lots"))
    }

    /// `/` searches, `f` keeps the rows with the cursor row's value in the cursor's column, `F`
    /// shows every row again; the filter is on the status line in words.
    @Test func searchAndFilterNarrowTheViewAndSayHow() throws {
        let pane = try Pane(daemon: try Self.demo(rows: 10), columns: 100, rows: 15)
        try pane.keys("/")
        _ = try pane.screen(until: { Self.status($0).hasPrefix("search:") })
        try pane.keys("valve", "Enter")
        let searched = try pane.screen(until: { Self.status($0).hasPrefix("“valve” · rows 1–1 of 1 shown") })
        #expect(Self.status(searched).hasPrefix("“valve” · rows 1–1 of 1 shown"), "\(Self.status(searched))")
        #expect(searched[1].hasPrefix("[ ]Safety Valve SV-12"), "\(searched)")
        #expect(!searched.contains { $0.hasPrefix("[ ]Servo Motor") })

        try pane.keys("F")
        let every = try pane.screen(until: { Self.status($0).hasPrefix("rows 1–") })
        #expect(every.contains { $0.hasPrefix("[ ]Servo Motor") })

        // The cursor is on the first row (Servo Motor, rack B2); on the Rack column, f lists the
        // racks with B2 highlighted, and Enter keeps B2.
        try pane.keys("Right", "f")
        let listed = try pane.screen(until: { $0.contains { $0.hasPrefix(" Rack: 10 values") } })
        #expect(listed.contains { $0.hasPrefix("[ ] B2") && $0.hasSuffix(" 1") }, "\(listed)")
        try pane.keys("Enter")
        let filtered = try pane.screen(until: { Self.status($0).hasPrefix("Rack is B2 · ") })
        #expect(Self.status(filtered).contains("of 1 shown"), "\(Self.status(filtered))")
        #expect(filtered[1].hasPrefix("[ ]Servo Motor"))
    }

    /// `f` on a column lists its values with their counts, most first, over the rows the
    /// view's other conditions let through; typing narrows the list, space marks values, and
    /// Enter keeps the rows with any marked value in place of the column's own condition.
    @Test func fPicksValuesFromTheColumnsDistinctValues() throws {
        let pane = try Pane(daemon: try Self.demo(rows: 10), columns: 100, rows: 15)
        try pane.keys("Right", "Right", "Right", "Right", "Right", "f")
        let listed = try pane.screen(until: { $0.contains { $0.hasPrefix(" Status: 4 values") } })
        let first = try #require(listed.firstIndex { $0.hasPrefix(" Status: 4 values") }, "\(listed)")
        #expect(listed[first + 1].hasPrefix("[ ] In Stock") && listed[first + 1].hasSuffix(" 6"), "\(listed)")
        #expect(listed[first + 2].hasPrefix("[ ] Low") && listed[first + 2].hasSuffix(" 2"), "\(listed)")
        #expect(Self.status(listed).hasPrefix("pick · "), "\(Self.status(listed))")

        // "lo" leaves Low; space marks it; "r" after clearing leaves Reorder, marked too.
        try pane.keys("l", "o")
        let narrowed = try pane.screen(until: { $0.contains { $0.hasPrefix(" Status: 1 value starting “lo”") } })
        #expect(narrowed.contains { $0.hasPrefix("[ ] Low") }, "\(narrowed)")
        try pane.keys("Space", "BSpace", "BSpace", "r", "Space")
        let marked = try pane.screen(until: { $0.contains { $0.hasPrefix("[x] Reorder") } })
        #expect(marked.contains { $0.hasPrefix(" Status: 1 value starting “r”") }, "\(marked)")
        try pane.keys("Enter")
        let filtered = try pane.screen(until: { Self.status($0).hasPrefix("Status is Low or Reorder · ") })
        #expect(Self.status(filtered).contains("of 3 shown"), "\(Self.status(filtered))")

        // Another column's list counts only the three rows the Status condition lets through;
        // Status's own list still has every status (its condition does not narrow it).
        try pane.keys("Home", "Left", "Left", "Left", "Left", "f")
        let racks = try pane.screen(until: { $0.contains { $0.hasPrefix(" Rack: 3 values") } })
        #expect(racks.contains { $0.hasPrefix(" Rack: 3 values") }, "\(racks)")
        try pane.keys("Escape")
        let left = try pane.screen(until: { !Self.status($0).hasPrefix("pick · ") })
        #expect(Self.status(left).hasPrefix("Status is Low or Reorder · "), "\(Self.status(left))")
        try pane.keys("Right", "Right", "Right", "Right", "f")
        let statuses = try pane.screen(until: { $0.contains { $0.hasPrefix(" Status: 4 values") } })
        #expect(statuses.contains { $0.hasPrefix(" Status: 4 values") }, "\(statuses)")
        try pane.keys("Escape")
    }

    /// `g` groups the rows by the cursor's column: section headers between them, with counts and
    /// the sums of the number and duration columns under them, and a total line.
    @Test func gGroupsTheRowsIntoSections() throws {
        let pane = try Pane(daemon: try Self.demo(rows: 10), columns: 100, rows: 20)
        try pane.keys("Right", "Right", "Right", "Right", "Right", "g")
        let grouped = try pane.screen(until: { Self.status($0).contains("grouped by Status") })
        #expect(grouped[1].hasPrefix(" In Stock · 6 rows "), "\(grouped)")
        // Qty's sum under Qty, the weights' under Weight, the lead times' under Lead.
        #expect(grouped[1].split(separator: " ").suffix(4) == ["9883", "24.58", "66h", "45m"], "\(grouped[1])")
        let total = try #require(grouped.first { $0.hasPrefix(" Total · 10 rows ") }, "\(grouped)")
        #expect(total.contains(" 9901 "), "\(total)")
        #expect(grouped[2].hasPrefix("[ ]Copper Pipe"))
        let low = try #require(grouped.firstIndex { $0.hasPrefix(" Low · 2 rows") }, "\(grouped)")
        #expect(low == 8)
        #expect(grouped[low + 1].contains("Low"))
        try pane.keys("g")
        let flat = try pane.screen(until: { Self.status($0).contains("not grouped") })
        #expect(!flat.contains { $0.hasPrefix(" In Stock ·") })
    }

    /// `g` on a second column nests groups by it, indented under the first; `c` collapses the
    /// cursor row's innermost group (its header stays, marked), `C` expands every group.
    @Test func gNestsGroupsAndCCollapsesTheCursorRowsGroup() throws {
        let pane = try Pane(daemon: try Self.demo(rows: 10), columns: 100, rows: 24)
        try pane.keys("Right", "Right", "Right", "Right", "Right", "g")
        _ = try pane.screen(until: { Self.status($0).contains("grouped by Status") })
        try pane.keys("Left", "Left", "Left", "Left", "g")
        let nested = try pane.screen(until: { Self.status($0).contains("grouped by Status › Rack") })
        #expect(nested[1].hasPrefix(" ▾ In Stock · 6 rows "), "\(nested)")
        #expect(nested[2].hasPrefix("   ▾ A1 · 1 row "), "\(nested)")
        #expect(nested[3].hasPrefix("[ ]Ball Bearing"), "\(nested)")
        #expect(nested[4].hasPrefix("   ▾ A2 · 1 row "), "\(nested)")
        try pane.keys("c")
        let collapsed = try pane.screen(until: {
            Self.status($0).contains("collapsed In Stock › A1") && $0.count > 2 && $0[2].contains("▸")
        })
        #expect(collapsed[2].hasPrefix("   ▸ A1 · 1 row "), "\(collapsed)")
        #expect(collapsed[3].hasPrefix("   ▾ A2 · 1 row "), "\(collapsed)")
        try pane.keys("C")
        _ = try pane.screen(until: { Self.status($0).contains("every group expanded") })
        try pane.keys("Home")
        let expanded = try pane.screen(until: { $0.count > 3 && $0[3].hasPrefix("[ ]Ball") })
        #expect(expanded[3].hasPrefix("[ ]Ball Bearing"), "\(expanded)")
    }

    @Test func rowsAddedAboveByAnotherClientAreCounted() throws {
        let daemon = try Self.demo(rows: 200)
        let pane = try Pane(daemon: daemon, rows: 15)
        try pane.keys("PageDown", "PageDown")
        let before = try pane.screen(until: { !Self.status($0).hasPrefix("rows 1–") })
        let firstRow = before[1]
        let other = try daemon.connect()
        for day in 1...3 {
            try other.send(
                AddRequest(
                    table: "stock",
                    row: ["item": .string("Fresh \(day)"), "received": .string("2031-01-0\(day)")]
                )
            )
        }
        let after = try pane.screen(until: { Self.status($0).contains("3 new rows above") })
        #expect(Self.status(after).contains("↑ 3 new rows above"), "\(Self.status(after))")
        #expect(after[1] == firstRow)
        #expect(Self.status(after).components(separatedBy: "new row").count == 2, "counted once: \(Self.status(after))")
        try pane.keys("Home")
        let top = try pane.screen(until: { !Self.status($0).contains("new rows above") })
        #expect(top[1].hasPrefix("[ ]Fresh 3"), "\(top[1])")
    }

    /// What another client changes shows with no key pressed (the viewer applies its watch's
    /// `window` notifications): an edit in a shown row, a selection, a sort (the header's ▲
    /// follows it), a row deleted.
    @Test func anotherClientsChangesShowWithoutAKeyPress() throws {
        let daemon = try Self.demo(rows: 10)
        let pane = try Pane(daemon: daemon, columns: 100, rows: 15)
        let before = try pane.screen()
        #expect(before[1].hasPrefix("[ ]Servo Motor SM-400"), "\(before)")
        let other = try daemon.connect()
        try other.send(EditRequest(table: "stock", id: 5, column: "item", value: "Servo Motor SM-500"))
        let edited = try pane.screen(until: { $0[1].hasPrefix("[ ]Servo Motor SM-500") })
        #expect(edited[1].hasPrefix("[ ]Servo Motor SM-500"), "\(edited)")
        try other.send(SelectRequest(table: "stock", action: .toggle, ids: [5]))
        let selected = try pane.screen(until: { Self.status($0).contains("1 selected") })
        #expect(selected[1].hasPrefix("[x]Servo Motor SM-500"), "\(selected)")
        try other.send(SortRequest(table: "stock", keys: [SortKeyParam(column: "qty")]))
        let sorted = try pane.screen(until: { $0[0].contains("▲Qty") })
        #expect(sorted[0].contains("▲Qty") && !sorted[0].contains("▼"), "\(sorted[0])")
        #expect(sorted.firstIndex { $0.hasPrefix("[ ]Hex Bolt") } == 10, "the largest quantity is last: \(sorted)")
        try other.send(DeleteRequest(table: "stock", ids: [5]))
        let deleted = try pane.screen(until: { !$0.contains { $0.contains("Servo Motor") } })
        #expect(!deleted.contains { $0.contains("Servo Motor") }, "\(deleted)")
        #expect(Self.status(deleted).contains("of 9"), "\(Self.status(deleted))")
    }

    @Test func aNarrowTerminalShowsTheListReport() throws {
        let pane = try Pane(daemon: try Self.demo(rows: 10), columns: 40, rows: 12)
        let lines = try pane.screen()
        #expect(lines[0].hasPrefix("Servo Motor SM-400"), "\(lines)")
        #expect(lines[1].hasPrefix("B2"))
    }

    /// `s` sorts by the cursor's column: the header marks it ▲, the cursor stays on its row
    /// wherever the sort puts it, and a › shows that columns go on past the right edge.
    @Test func sortingMarksTheHeaderAndKeepsTheCursorOnItsRow() throws {
        let pane = try Pane(daemon: try Self.demo(rows: 10), columns: 80, rows: 16)
        let first = try pane.screen()
        #expect(first[0].contains("▼"), "the demo is sorted by received, newest first: \(first[0])")
        #expect(first[0].hasSuffix("›"), "\(first[0])")
        try pane.keys("Down", "Down", "Right", "Right")
        let before = try pane.screen(until: { Self.status($0).hasPrefix("rows ") })
        // The cursor row is drawn in reverse (the header's cursor column too: skip the header).
        let reversed = { (lines: [String]) in lines.dropFirst().first { $0.contains("\u{1B}[7m") } }
        let cursorItem = try #require(
            reversed(try pane.styledScreen(until: { reversed($0)?.contains("Hex Bolt") == true }))
        )
        let item = before.first { $0.hasPrefix("[ ]Hex Bolt") }
        #expect(cursorItem.contains("Hex Bolt"), "the cursor starts on the third row: \(cursorItem)")
        #expect(item != nil)
        try pane.keys("s")
        let sorted = try pane.screen(until: { Self.status($0).contains("sorted by Qty") })
        #expect(sorted[0].contains("▲Qty"), "\(sorted[0])")
        #expect(!sorted[0].contains("▼"))
        let styled = try pane.styledScreen(until: { reversed($0)?.contains("Hex Bolt") == true })
        #expect(styled.dropFirst().first { $0.contains("\u{1B}[7m") }?.contains("Hex Bolt") == true, "\(styled)")
        #expect(sorted.firstIndex { $0.hasPrefix("[ ]Hex Bolt") } == 10, "the largest quantity is last: \(sorted)")
    }

    /// `+` asks for every column a row must have, one after another, then adds the row.
    @Test func addingARowAsksForEveryRequiredColumn() throws {
        let daemon = try TestDaemon()
        try daemon.connect().send(
            CreateRequest(
                table: "bins",
                columns: [
                    ColumnDefinition(key: "note"), ColumnDefinition(key: "bin", label: "Bin", required: true),
                    ColumnDefinition(key: "qty", label: "Qty", type: .number, required: true),
                ]
            )
        )
        // An empty table opens too.
        let pane = try Pane(daemon: daemon, columns: 80, rows: 12, table: "bins")
        _ = try pane.screen(until: { Self.status($0).hasPrefix("no rows of 0") })
        try pane.keys("+")
        _ = try pane.screen(until: { Self.status($0).hasPrefix("new row — Bin (1 of 2):") })
        try pane.keys("A1", "Enter")
        _ = try pane.screen(until: { Self.status($0).hasPrefix("new row — Qty (2 of 2):") })
        try pane.keys("7", "Enter")
        let added = try pane.screen(until: { Self.status($0).contains("added a row") })
        #expect(added.contains { $0.contains("A1") && $0.contains("7") }, "\(added)")
    }

    /// At 120 columns the key hints end with "? keys · q quit"; `?` lists every key in place of
    /// the rows and any key closes the list; Esc cancels and never quits.
    @Test func questionMarkListsEveryKeyAndEscapeDoesNotQuit() throws {
        let pane = try Pane(daemon: try Self.demo(rows: 10), columns: 120, rows: 40)
        let first = try pane.screen()
        #expect(Self.status(first).hasSuffix("? keys · q quit"), "\(Self.status(first))")
        #expect(Self.status(first).count <= 120)

        try pane.keys("Escape")
        let escaped = try pane.screen(until: { Self.status($0).contains("q quits · ? lists the keys") })
        #expect(Self.status(escaped).contains("q quits · ? lists the keys"), "\(escaped)")
        #expect(escaped.contains { $0.hasPrefix("[ ]Servo Motor") }, "the viewer must still run: \(escaped)")

        try pane.keys("?")
        let listed = try pane.screen(until: { $0.contains { $0.hasPrefix("Esc") } })
        for (key, does) in [
            ("PgUp PgDn", "a page up or down"), ("space", "select the cursor row"), ("/", "search every column"),
            ("c  C", "collapse the cursor row's group"), ("?", "list these keys"), ("Esc", "cancel"),
            ("q  Ctrl-C", "quit"),
        ] {
            #expect(listed.contains { $0.hasPrefix(key + " ") && $0.contains(does) }, "\(key): \(listed)")
        }
        #expect(!listed.contains { $0.hasPrefix("[ ]Servo Motor") })
        try pane.keys("Escape")
        let closed = try pane.screen(until: { $0.contains { $0.hasPrefix("[ ]Servo Motor") } })
        #expect(closed.contains { $0.hasPrefix("[ ]Servo Motor") }, "\(closed)")

        // Narrower, the hints that do not fit give way; "? keys · q quit" stays.
        let narrow = try Pane(daemon: try Self.demo(rows: 10), columns: 70, rows: 20)
        let status = Self.status(try narrow.screen())
        #expect(status.hasSuffix("? keys · q quit"), "\(status)")
    }
}
