import ArgumentParser
import DataTableProtocol
import Foundation

/// `datatable watch TABLE`: a live window, redrawn in place (like `top`) each time the daemon
/// says what changed in it; with `--json`, the watch's reply and then each delta as a line.
struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a live window of a table, redrawn as it changes (--json: the deltas, one per line).",
        discussion: """
            datatable watch stock                  (until Ctrl-C)
            datatable watch stock --rate 5 --rows 10
            datatable watch stock --json --count 3 (the window, then three deltas as NDJSON)
            """
    )
    @OptionGroup var common: CommonOptions
    @OptionGroup var layout: LayoutFlags
    @Argument(help: "The table.", completion: .custom(Completions.tables)) var table: String
    @Option(help: "Rows shown (default 20).") var rows = 20
    @Option(help: "The most updates a second, 1 to 120 (default 30).") var rate: Int?
    @Option(help: "Stop after this many updates.") var count: Int?
    @Option(help: "Stop after this many seconds (however many updates came).") var seconds: Double?

    func run() throws {
        let viewport = ScrollRequest.Viewport(width: Double(layout.resolvedWidth), height: Double(rows + 1))
        let scroll = layout.scrollRequest(table, viewport: viewport, to: nil)
        try common.withSession { session in
            let reply = try session.sendForJSON(WatchRequest(scroll: scroll, maxRate: rate))
            fflush(nil)
            var window = reply
            if case .object(var members) = window {
                members.removeValue(forKey: "watch")
                window = .object(members)
            }
            let inPlace = !common.json && isatty(STDOUT_FILENO) == 1
            if !common.json { draw(window, inPlace: inPlace, first: true) }
            var seen = 0
            let deadline = seconds.map { Date().addingTimeInterval($0) }
            while count.map({ seen < $0 }) ?? true, let message = try session.nextNotification(before: deadline) {
                guard message["method"]?.stringValue == "window", let params = message["params"] else { continue }
                if let ended = params["ended"]?.stringValue {
                    throw ValidationError("The watch ended: \(ended)")
                }
                seen += 1
                if common.json {
                    print(try DaemonSession.line(params))
                } else {
                    let delta = try JSONDecoder().decode(WindowDelta.self, from: JSONEncoder().encode(params))
                    delta.apply(to: &window)
                    draw(window, inPlace: inPlace, first: false)
                }
                fflush(nil)
            }
        }
    }

    /// Draws the window: in a terminal over the last one (cursor home, screen cleared); into a
    /// pipe or file each window after the last, a blank line between.
    private func draw(_ window: JSONValue, inPlace: Bool, first: Bool) {
        if inPlace {
            print("\u{1B}[H\u{1B}[2J", terminator: "")
        } else if !first {
            print()
        }
        let total = window["total"]?.text ?? ""
        let version = window["version"]?.text ?? ""
        print("\(table): \(total) rows, version \(version)")
        for line in WindowText(window: window).lines { print(line) }
        fflush(nil)
    }
}
