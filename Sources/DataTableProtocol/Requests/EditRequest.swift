import MemberwiseInit

/// `edit`: set one cell (`id`, `column`, `value`), a batch (`edits`), or one column across the
/// selection (`selection: true`, `column`, `value`). All or nothing.
///
/// A value that does not fit its column commits nothing: the reply is an `invalid_value` error
/// and the cell keeps the input as a draft with the message (see `get`, `revert`).
@MemberwiseInit
public struct EditRequest: DataTableRequest {
    /// The method name on the wire: `"edit"`.
    public static let method = "edit"
    /// The line `help` shows for `edit`.
    public static let summary =
        "Set a cell, a batch of cells, or a column across the selection; invalid input becomes a draft."

    /// The table to edit; the peer needs write (`permission_denied`).
    public var table: String
    /// The row of the one cell to set (a whole number or a string); absent with `edits` or
    /// `selection: true`.
    public var id: JSONValue?
    /// The key of the column to set, in one row or across the selection; required unless `edits`
    /// is given.
    public var column: String?
    /// Absent when `edits` is used; `null` empties the cell.
    public var value: JSONValue?
    /// Cells to set as one change, instead of `id`, `column` and `value`; at most `maxBatchSize`
    /// (`limit_exceeded`).
    public var edits: [Change]?
    /// Set `column` to `value` in every selected row.
    public var selection: Bool?
    /// Only if the table is still at this version (the `version` of the reply or event the
    /// client last saw): otherwise `conflict`, with the table's version in
    /// `data.version`, and nothing changes.
    public var ifVersion: Int?
    /// With `selection`: edit only the selected rows this connection's view shows (`filter`).
    public var view: Bool?
    /// With `id`: only if the row is still at this row version (its `version` in `get` or
    /// `scroll`): otherwise `conflict`, with the row's version in `data.rowVersion`, and nothing
    /// changes. Another row's changes do not matter.
    public var ifRowVersion: Int?

    private enum CodingKeys: String, CodingKey {
        case table, id, column, value, edits, selection, ifVersion, view, ifRowVersion
    }

    /// Decodes the params, telling a `value` of `null` (empty the cell) from an absent one.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        table = try container.decode(String.self, forKey: .table)
        id = try container.decodeIfPresent(JSONValue.self, forKey: .id)
        column = try container.decodeIfPresent(String.self, forKey: .column)
        // A present `null` is a value (empty the cell), unlike an absent member.
        value = container.contains(.value) ? try container.decode(JSONValue.self, forKey: .value) : JSONValue?.none
        edits = try container.decodeIfPresent([Change].self, forKey: .edits)
        selection = try container.decodeIfPresent(Bool.self, forKey: .selection)
        ifVersion = try container.decodeIfPresent(Int.self, forKey: .ifVersion)
        view = try container.decodeIfPresent(Bool.self, forKey: .view)
        ifRowVersion = try container.decodeIfPresent(Int.self, forKey: .ifRowVersion)
    }

    /// One cell of a batch.
    @MemberwiseInit
    public struct Change: Codable, Hashable, Sendable {
        /// The row's id (a whole number or a string).
        public var id: JSONValue
        /// The key of the cell's column.
        public var column: String
        /// The new value: a string, a number or `null` (empties the cell); a missing `value` reads as `null`.
        public var value: JSONValue
        /// Only if the row is still at this row version (see the request's `ifRowVersion`).
        public var ifRowVersion: Int?

        private enum CodingKeys: String, CodingKey { case id, column, value, ifRowVersion }

        /// Decodes one change; an absent `value` reads as `null`.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(JSONValue.self, forKey: .id)
            column = try container.decode(String.self, forKey: .column)
            value = container.contains(.value) ? try container.decode(JSONValue.self, forKey: .value) : .null
            ifRowVersion = try container.decodeIfPresent(Int.self, forKey: .ifRowVersion)
        }
    }

    /// The cells as committed, and how many drafts the table holds.
    @MemberwiseInit
    public struct Response: Codable, Hashable, Sendable {
        /// The table's name.
        public var table: String
        /// The table's version after the edit.
        public var version: Int
        /// Cells set.
        public var edited: Int
        /// The cells as stored (for a bulk edit, only the first 1000).
        public var cells: [CellReply]
        /// Cells holding a rejected draft in the table.
        public var errors: Int
    }
}

extension EditRequest: ReadableParams {
    /// Reads the params straight from the bytes; `nil` leaves them to `JSONDecoder`.
    public init?(reading reader: inout ParamsReader) {
        var table: String?
        var id: JSONValue?
        var column: String?
        var value: JSONValue?
        var edits: [Change]?
        var selection: Bool?
        var ifVersion: Int?
        var view: Bool?
        var ifRowVersion: Int?
        let read = reader.object { reader, key in
            switch key {
            case "table": reader.first(0) && reader.optional(&table) { $0.string() }
            case "id": reader.first(1) && reader.optional(&id) { $0.value() }
            case "column": reader.first(2) && reader.optional(&column) { $0.string() }
            // A present `null` is a value (empty the cell).
            case "value": reader.first(3) && reader.assign(&value) { $0.value() }
            case "edits": reader.first(4) && reader.optional(&edits) { $0.array { Change(reading: &$0) } }
            case "selection": reader.first(5) && reader.optional(&selection) { $0.bool() }
            case "ifVersion": reader.first(6) && reader.optional(&ifVersion) { $0.int() }
            case "view": reader.first(7) && reader.optional(&view) { $0.bool() }
            case "ifRowVersion": reader.first(8) && reader.optional(&ifRowVersion) { $0.int() }
            default: false
            }
        }
        guard read, let table else { return nil }
        self.init(
            table: table,
            id: id,
            column: column,
            value: value,
            edits: edits,
            selection: selection,
            ifVersion: ifVersion,
            view: view,
            ifRowVersion: ifRowVersion
        )
    }
}

extension EditRequest.Change {
    /// One change of a batch, read as its decoding reads it; `nil` as ``ParamsReader`` says.
    init?(reading reader: inout ParamsReader) {
        var id: JSONValue?
        var column: String?
        var value: JSONValue?
        var ifRowVersion: Int?
        let read = reader.object { reader, key in
            switch key {
            // A null id is left to the decoder.
            case "id": reader.first(0) && !reader.null() && reader.optional(&id) { $0.value() }
            case "column": reader.first(1) && reader.optional(&column) { $0.string() }
            case "value": reader.first(2) && reader.assign(&value) { $0.value() }
            case "ifRowVersion": reader.first(3) && reader.optional(&ifRowVersion) { $0.int() }
            default: false
            }
        }
        guard read, let id, let column else { return nil }
        self.init(id: id, column: column, value: value ?? .null, ifRowVersion: ifRowVersion)
    }
}
