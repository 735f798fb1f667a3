/// Who owns a table and what its owner, the owner's group and everyone else may do with it,
/// in the words of Unix file modes: the read (4) and write (2) bits of each class.
///
/// The engine only keeps it with the table (and in its image); the server decides from it what
/// each client may do.
public struct TableAccess: Sendable, Hashable {
    /// The owner's user id.
    public var owner: UInt32
    /// The group whose members share the group's rights.
    public var group: UInt32
    /// Permission bits, as `chmod` takes them (`0o640`: the owner reads and writes, the group
    /// reads, others nothing). Only read and write bits mean anything; others are refused.
    public var mode: UInt16

    /// Access as given; `mode` is not checked here (see ``mode(_:)``).
    public init(owner: UInt32, group: UInt32, mode: UInt16) {
        self.owner = owner
        self.group = group
        self.mode = mode
    }

    /// Everyone may read and change the table: what a table made without an owner has.
    public static let open = TableAccess(owner: 0, group: 0, mode: 0o666)

    /// The bits a mode may hold: read and write for each class.
    public static let meaningfulBits: UInt16 = 0o666

    /// The mode as `chmod` writes it: four octal digits.
    public var modeText: String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// A mode written as octal digits ("640", "0640"), or `nil` when `text` is not one or sets
    /// bits other than read and write.
    public static func mode(_ text: String) -> UInt16? {
        guard (1...4).contains(text.count), text.allSatisfy({ ("0"..."7").contains($0) }),
            let mode = UInt16(text, radix: 8), mode & ~meaningfulBits == 0
        else { return nil }
        return mode
    }
}

extension Table {
    /// Gives the table a new owner, group or mode: a change like any other (a new version).
    public mutating func changeAccess(to access: TableAccess) {
        guard access != self.access else { return }
        self.access = access
        // A barrier no undo crosses: what was done under the old owner or mode is not taken
        // back under the new one (a row deleted while the table was private stays deleted).
        forgetHistory()
        version += 1
    }
}
