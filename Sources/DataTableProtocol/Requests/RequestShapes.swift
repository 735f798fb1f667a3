// Which members of a request go together: each request's `validate()`.

extension AddRequest {
    /// Requires `row` or `rows`, not both: `invalid_params` on `params.row` for neither, `params.rows` for both.
    public func validate() throws(ResponseError) {
        guard row != nil || rows != nil else {
            throw .invalidParams("Give row (one object) or rows (an array).", field: "params.row")
        }
        guard row == nil || rows == nil else {
            throw .invalidParams("Give row or rows, not both.", field: "params.rows")
        }
    }
}

extension DeleteRequest {
    /// Refuses params without exactly one of `ids` and `selection: true` (`invalid_params`, `params.ids`), and
    /// `view` without `selection: true` (`params.view`).
    public func validate() throws(ResponseError) {
        guard (ids == nil) != (selection != true) else {
            throw .invalidParams("Give ids or selection: true (one of them).", field: "params.ids")
        }
        guard view == nil || selection == true else {
            throw .invalidParams("view goes with selection: true (ids name the rows themselves).", field: "params.view")
        }
    }
}

extension LoadRequest {
    /// Refuses params without exactly one of `path`, `text` and `upload: true` (`invalid_params`, `params.path`).
    public func validate() throws(ResponseError) {
        guard [path != nil, text != nil, upload == true].filter({ $0 }).count == 1 else {
            throw .invalidParams("Give path, text or upload: true (one of them).", field: "params.path")
        }
    }
}

extension ExportRequest {
    /// Refuses `path` together with `stream: true` (`invalid_params`, `params.stream`).
    public func validate() throws(ResponseError) {
        guard path == nil || stream != true else {
            throw .invalidParams("Give path or stream: true, not both.", field: "params.stream")
        }
    }
}

extension ChmodRequest {
    /// Refuses params with none of `mode`, `group` and `owner` (`invalid_params`, `params.mode`).
    public func validate() throws(ResponseError) {
        guard mode != nil || group != nil || owner != nil else {
            throw .invalidParams("Give mode, group or owner (or several).", field: "params.mode")
        }
    }
}

extension EditRequest {
    /// Refuses `edits` beside `id`, `value` or `selection: true`; without `edits`, requires `column`, `value`, and
    /// `id` or `selection: true` (not both); `view` only with `selection: true`. Each refusal is `invalid_params`
    /// naming the member.
    public func validate() throws(ResponseError) {
        guard view == nil || selection == true else {
            throw .invalidParams("view goes with selection: true (ids name the rows themselves).", field: "params.view")
        }
        guard ifRowVersion == nil || id != nil else {
            throw .invalidParams(
                "ifRowVersion goes with id (in a batch, give it in each edit).",
                field: "params.ifRowVersion"
            )
        }
        if edits != nil {
            guard id == nil, column == nil, value == nil, selection != true else {
                throw .invalidParams("Give edits, or id, column and value, not both.", field: "params.edits")
            }
            return
        }
        guard column != nil else { throw .invalidParams("params.column is required.", field: "params.column") }
        guard value != nil else { throw .invalidParams("params.value is required.", field: "params.value") }
        if selection == true {
            guard id == nil else { throw .invalidParams("Give id or selection: true, not both.", field: "params.id") }
        } else {
            guard id != nil else {
                throw .invalidParams("params.id is required (or selection: true).", field: "params.id")
            }
        }
    }
}

extension SelectRequest {
    /// The action the request takes: as given, or `set` when it names rows; `nil` when it only
    /// changes the mode.
    public var effectiveAction: SelectionAction? {
        action ?? (ids == nil && from == nil && mode != nil ? nil : .set)
    }

    /// For `set`, `add`, `remove` and `toggle`, refuses both `ids` and `from` (`invalid_params`, `params.from`) or
    /// neither (`params.ids`); `view` only with a range or `all` (`params.view`). (An unknown `action` is refused
    /// while it is read: `invalid_value`, `params.action`.)
    public func validate() throws(ResponseError) {
        guard view == nil || (ids == nil && effectiveAction != SelectionAction.none && effectiveAction != nil) else {
            throw .invalidParams(
                "view goes with from/count or action all (ids name the rows themselves).",
                field: "params.view"
            )
        }
        guard let action = effectiveAction, action.namesRows else { return }
        guard ids == nil || from == nil else {
            throw .invalidParams("Give ids or from/count, not both.", field: "params.from")
        }
        guard ids != nil || from != nil else {
            throw .invalidParams("Name the rows: ids, or from and count (or action all / none).", field: "params.ids")
        }
    }
}

extension GetRequest {
    public func validate() throws(ResponseError) {
        guard ids == nil || (from == nil && count == nil) else {
            throw .invalidParams("Give ids, or from and count, not both.", field: "params.from")
        }
    }
}
