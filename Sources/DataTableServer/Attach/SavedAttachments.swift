import DataTableEngine
import DataTableProtocol
import Foundation
import Synchronization

/// One attachment as the state directory keeps it: enough to attach the table again after a
/// restart, with the access it had.
public struct SavedAttachment: Codable, Sendable, Hashable {
    /// The table's name.
    public var table: String
    /// The source's name.
    public var source: String
    /// Where the rows come from, as `attach` was asked.
    public var origin: SourceOrigin
    /// The table's owner, group and mode.
    public var owner: UInt32
    public var group: UInt32
    public var mode: UInt16

    /// The record of `table` attached from `source` as `origin` says, with `access`.
    init(table: String, source: String, origin: SourceOrigin, access: TableAccess) {
        self.table = table
        self.source = source
        self.origin = origin
        self.owner = access.owner
        self.group = access.group
        self.mode = access.mode
    }

    var access: TableAccess { TableAccess(owner: owner, group: group, mode: mode) }
}

/// The attachments of a state directory, in its file `attachments` (JSON, replaced whole and
/// forced to disk at each change). The rows of an attached table are the source's and are not
/// kept (neither logged nor in a snapshot); the attachment is, so that a restart attaches the
/// table again by itself and reads its rows as they are then.
public final class SavedAttachments: Sendable {
    /// The file's name in the state directory.
    static let fileName = "attachments"

    private let path: String
    private let saved: Mutex<[String: SavedAttachment]>

    /// The attachments kept in `directory`; throws when its file is there and cannot be read.
    init(directory: String) throws(StateDirectoryError) {
        path = "\(directory)/\(Self.fileName)"
        var saved: [String: SavedAttachment] = [:]
        if let bytes = try StateFiles.read(path) {
            do {
                for record in try JSONDecoder().decode([SavedAttachment].self, from: Data(bytes)) {
                    saved[record.table] = record
                }
            } catch {
                throw .damaged("\(path) cannot be read: \(error)")
            }
        }
        self.saved = Mutex(saved)
    }

    /// Every attachment kept, by table name.
    var all: [SavedAttachment] { saved.withLock { $0.values.sorted { $0.table < $1.table } } }

    /// Keeps `record` (replacing any of its table); `not_saved` when the file cannot be written,
    /// the attachment then not kept.
    func save(_ record: SavedAttachment) throws(ResponseError) {
        try change { $0[record.table] = record }
    }

    /// Forgets the attachment of the table called `table`, if one is kept.
    func forget(_ table: String) throws(ResponseError) {
        try change { $0[table] = nil }
    }

    /// Forgets `record`, if it is still the one kept for its table.
    func forget(_ record: SavedAttachment) throws(ResponseError) {
        try change { saved in
            if saved[record.table] == record { saved[record.table] = nil }
        }
    }

    /// Whether `record` is the attachment kept for its table.
    func keeps(_ record: SavedAttachment) -> Bool {
        saved.withLock { $0[record.table] == record }
    }

    /// Keeps `access` as that of the table called `table`, if it is attached.
    func setAccess(_ access: TableAccess, of table: String) throws(ResponseError) {
        try change { saved in
            saved[table]?.owner = access.owner
            saved[table]?.group = access.group
            saved[table]?.mode = access.mode
        }
    }

    private func change(_ body: (inout [String: SavedAttachment]) -> Void) throws(ResponseError) {
        try saved.withLock { saved throws(ResponseError) in
            var changed = saved
            body(&changed)
            guard changed != saved else { return }
            let records = changed.values.sorted { $0.table < $1.table }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            do {
                let bytes = Array(try encoder.encode(records)) + [UInt8(ascii: "\n")]
                try StateFiles.replace(path, staging: path + ".new", with: [bytes])
            } catch {
                throw .notSaved("\(error)")
            }
            saved = changed
        }
    }
}
