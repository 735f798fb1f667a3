/// `undo`: take back the last edit (of the last 100).
public struct UndoRequest: DataTableRequest {
    /// The `method` string on the wire.
    public static let method = "undo"
    /// The line `help` shows for the method.
    public static let summary = "Take back the last edit (the last 100 are kept)."

    /// The table's name.
    public var table: String

    /// Params naming the table.
    public init(table: String) { self.table = table }

    /// The reply: the cells as they are now; with no edit to take back, `nothing_to_undo`.
    public typealias Response = UndoResponse
}

/// `redo`: make again the last edit taken back by `undo`.
public struct RedoRequest: DataTableRequest {
    /// The `method` string on the wire.
    public static let method = "redo"
    /// The line `help` shows for the method.
    public static let summary = "Make again the last edit taken back by undo."

    /// The table's name.
    public var table: String

    /// Params naming the table.
    public init(table: String) { self.table = table }

    /// The reply: the cells as they are now; with no undone edit to make again, `nothing_to_undo`.
    public typealias Response = UndoResponse
}

/// What `undo` and `redo` reply: the cells as they are now.
public struct UndoResponse: Codable, Hashable, Sendable {
    /// The table's name.
    public var table: String
    /// The table's version after the step.
    public var version: Int
    /// The cells the step set, as they are now (the first 1000); cells of rows deleted since are left out.
    public var cells: [CellReply]
    /// Whether an edit is left to undo.
    public var canUndo: Bool
    /// Whether an undone edit is left to redo.
    public var canRedo: Bool

    /// A reply with every member given.
    public init(table: String, version: Int, cells: [CellReply], canUndo: Bool, canRedo: Bool) {
        self.table = table
        self.version = version
        self.cells = cells
        self.canUndo = canUndo
        self.canRedo = canRedo
    }
}
