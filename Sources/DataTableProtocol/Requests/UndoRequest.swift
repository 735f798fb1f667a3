import MemberwiseInit

/// `undo`: take back the last change a person made (of the last 100, or `--undo-depth`).
public struct UndoRequest: DataTableRequest {
    /// The `method` string on the wire.
    public static let method = "undo"
    /// The line `help` shows for the method.
    public static let summary = "Take back the last add, edit, delete, clear or alter (the last 100 are kept)."

    /// The table's name.
    public var table: String
    /// Only if the table is still at this version (the `version` of the reply or event the
    /// client last saw): otherwise `conflict`, with the table's version in `data.version`, and
    /// nothing changes.
    public var ifVersion: Int?

    /// Params naming the table.
    public init(table: String, ifVersion: Int? = nil) {
        self.table = table
        self.ifVersion = ifVersion
    }

    /// The reply: what the step did; with no change to take back, `nothing_to_undo`.
    public typealias Response = UndoResponse
}

/// `redo`: make again the last change taken back by `undo`.
public struct RedoRequest: DataTableRequest {
    /// The `method` string on the wire.
    public static let method = "redo"
    /// The line `help` shows for the method.
    public static let summary = "Make again the last change taken back by undo."

    /// The table's name.
    public var table: String
    /// Only if the table is still at this version (the `version` of the reply or event the
    /// client last saw): otherwise `conflict`, with the table's version in `data.version`, and
    /// nothing changes.
    public var ifVersion: Int?

    /// Params naming the table.
    public init(table: String, ifVersion: Int? = nil) {
        self.table = table
        self.ifVersion = ifVersion
    }

    /// The reply: what the step did; with no undone change to make again, `nothing_to_undo`.
    public typealias Response = UndoResponse
}

/// What `undo` and `redo` reply: what the step did.
@MemberwiseInit
public struct UndoResponse: Codable, Hashable, Sendable {
    /// The table's name.
    public var table: String
    /// The table's version after the step.
    public var version: Int
    /// The cells the step set, as they are now (the first 1000).
    public var cells: [CellReply]
    /// Ids of the rows the step brought back, with their ids, places, selection and drafts
    /// (the first 1000); left out when none came back.
    public var restored: [JSONValue]?
    /// Ids of the rows the step took out (the first 1000); left out when none went.
    public var removed: [JSONValue]?
    /// What the step changed in the columns; left out when it changed none.
    public var altered: SchemaChangeReply?
    /// Rows in the table now.
    public var rows: Int
    /// Whether a change is left to undo.
    public var canUndo: Bool
    /// Whether an undone change is left to redo.
    public var canRedo: Bool
}
