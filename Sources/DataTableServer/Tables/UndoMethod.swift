import DataTableEngine
import DataTableProtocol
import Foundation

extension MethodTable {
    /// The reply of `undo` and `redo`: the cells as they are now.
    static func undoReply(_ cells: [EditedCell], _ table: Table) -> UndoResponse {
        UndoResponse(
            table: table.name,
            version: Int(table.version),
            cells: WireValues.cells(cells, in: table, limit: 1000),
            canUndo: table.canUndo,
            canRedo: table.canRedo
        )
    }
}
