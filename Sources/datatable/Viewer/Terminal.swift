import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The controlling terminal in raw mode on the alternate screen, restored on `close()`: key
/// presses read one at a time, output written in whole frames.
final class Terminal {
    /// A key press, decoded from the bytes a terminal sends.
    enum Key: Equatable {
        case up, down, left, right, pageUp, pageDown, home, end
        case enter, escape, backspace, tab
        case character(Character)
        case control(UInt8)
    }

    private var saved = termios()
    private var pending: [UInt8] = []

    /// Switches standard input to raw mode and standard output to the alternate screen.
    init() throws {
        guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &saved) == 0 else {
            throw DaemonSession.Refused(message: "The viewer needs a terminal.", kind: "not_a_terminal")
        }
        var raw = saved
        cfmakeraw(&raw)
        raw.c_oflag |= tcflag_t(OPOST | ONLCR)
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        write("\u{1B}[?1049h\u{1B}[?25l")
    }

    /// Back to the screen and mode the terminal had.
    func close() {
        write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        tcsetattr(STDIN_FILENO, TCSANOW, &saved)
    }

    /// Columns and rows; 80 × 24 when the terminal does not say.
    var size: (columns: Int, rows: Int) { Output.terminalSize() ?? (80, 24) }

    func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written <= 0 { return }
            bytes = bytes.dropFirst(written)
        }
    }

    /// Whether a key press is waiting (bytes read and not yet decoded).
    var hasPendingKey: Bool { !pending.isEmpty }

    /// Reads what the terminal sent; call when standard input is readable.
    func fill() {
        var chunk = [UInt8](repeating: 0, count: 256)
        let count = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
        if count > 0 { pending += chunk[..<count] }
    }

    /// The next key press read, if any.
    func nextKey() -> Key? {
        guard let first = pending.first else { return nil }
        if first == 0x1B {
            for (sequence, key) in Self.sequences where pending.starts(with: sequence) {
                pending.removeFirst(sequence.count)
                return key
            }
            pending.removeFirst()
            return .escape
        }
        pending.removeFirst()
        switch first {
        case 0x0D, 0x0A: return .enter
        case 0x7F, 0x08: return .backspace
        case 0x09: return .tab
        case 0..<0x20: return .control(first)
        default:
            // A UTF-8 sequence: its first byte says how long it is.
            let length = first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 1
            let rest = Array(pending.prefix(length - 1))
            pending.removeFirst(rest.count)
            let text = String(decoding: [first] + rest, as: UTF8.self)
            return text.first.map(Key.character)
        }
    }

    /// Escape sequences of the keys the viewer knows, longest first.
    private static let sequences: [([UInt8], Key)] = {
        let table: [(String, Key)] = [
            ("\u{1B}[5~", .pageUp), ("\u{1B}[6~", .pageDown), ("\u{1B}[1~", .home), ("\u{1B}[4~", .end),
            ("\u{1B}[7~", .home), ("\u{1B}[8~", .end), ("\u{1B}[A", .up), ("\u{1B}[B", .down),
            ("\u{1B}[C", .right), ("\u{1B}[D", .left), ("\u{1B}[H", .home), ("\u{1B}[F", .end),
            ("\u{1B}OA", .up), ("\u{1B}OB", .down), ("\u{1B}OC", .right), ("\u{1B}OD", .left),
            ("\u{1B}OH", .home), ("\u{1B}OF", .end),
        ]
        return table.map { (Array($0.0.utf8), $0.1) }.sorted { $0.0.count > $1.0.count }
    }()
}
