import CLibEdit
import Foundation

/// Reading typed lines with editing, history and completion (libedit's readline interface)
/// when input is a terminal; plain lines otherwise, so a script can pipe requests in.
final class LineEditor {
    /// What completes the word under the cursor: the line before the word, and the word so far
    /// → the words it may become, and whether a space follows one chosen.
    typealias Completer = (_ before: String, _ word: String) -> (candidates: [String], appendSpace: Bool)

    private let interactive: Bool
    private let historyPath: String?

    /// An editor keeping its history in `historyPath` (none when `nil`), completing with
    /// `completer`.
    init(historyPath: String?, completer: @escaping Completer) {
        interactive = isatty(STDIN_FILENO) == 1
        self.historyPath = historyPath
        guard interactive else { return }
        activeCompleter = completer
        // `=` ends a word too, so `table=st` completes `st` as a table name.
        datatable_edit_setup(complete)
        using_history()
        stifle_history(1000)
        if let historyPath { _ = read_history(historyPath) }
    }

    /// The next line typed (without its newline), or `nil` at the end of input (Ctrl-D).
    func readLine(prompt: String) -> String? {
        guard interactive else { return Swift.readLine() }
        guard let typed = readline(prompt) else { return nil }
        defer { free(typed) }
        let line = String(cString: typed)
        if !line.trimmingCharacters(in: .whitespaces).isEmpty {
            add_history(typed)
            if let historyPath { _ = write_history(historyPath) }
        }
        return line
    }
}

/// The completer of the editor reading now: libedit calls back through a C function, which
/// cannot carry context.
nonisolated(unsafe) private var activeCompleter: LineEditor.Completer?

/// libedit's completion hook: the words the word from `start` to `end` of the line may become,
/// as a NULL-ended array of malloc'd strings, the first being their common beginning.
private func complete(
    _ text: UnsafePointer<CChar>?,
    _ start: Int32,
    _ end: Int32
) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
    datatable_edit_completing(1)
    guard let completer = activeCompleter, let text, let buffer = datatable_edit_line() else { return nil }
    let line = Array(String(cString: buffer).utf8)
    let before = String(decoding: line.prefix(max(0, min(Int(start), line.count))), as: UTF8.self)
    let (candidates, appendSpace) = completer(before, String(cString: text))
    guard !candidates.isEmpty else { return nil }
    datatable_edit_completing(appendSpace ? 1 : 0)
    let common = candidates.dropFirst().reduce(candidates[0]) { shared, next in
        String(zip(shared, next).prefix { $0 == $1 }.map(\.0))
    }
    let entries = candidates.count == 1 ? candidates : [common] + candidates
    // libedit frees the array and its strings with free().
    let bytes = MemoryLayout<UnsafeMutablePointer<CChar>?>.stride * (entries.count + 1)
    let array = malloc(bytes)!.bindMemory(to: UnsafeMutablePointer<CChar>?.self, capacity: entries.count + 1)
    for (index, entry) in entries.enumerated() { array[index] = strdup(entry) }
    array[entries.count] = nil
    return array
}
