/// `undo`: take back the last edit (of the last 100).
public struct UndoRequest: DataTableRequest {
    public static let method = "undo"
    public static let summary = "Take back the last edit (the last 100 are kept)."

    public var table: String

    public init(table: String) { self.table = table }

    public typealias Response = UndoResponse
}

/// `redo`: make again the last edit taken back by `undo`.
public struct RedoRequest: DataTableRequest {
    public static let method = "redo"
    public static let summary = "Make again the last edit taken back by undo."

    public var table: String

    public init(table: String) { self.table = table }

    public typealias Response = UndoResponse
}

/// What `undo` and `redo` reply: the cells as they are now.
public struct UndoResponse: Codable, Hashable, Sendable {
    public var table: String
    public var version: Int
    public var cells: [CellReply]
    public var canUndo: Bool
    public var canRedo: Bool

    public init(table: String, version: Int, cells: [CellReply], canUndo: Bool, canRedo: Bool) {
        self.table = table
        self.version = version
        self.cells = cells
        self.canUndo = canUndo
        self.canRedo = canRedo
    }
}
