import DataTableEngine
import DataTableProtocol

// The engine's value for the sets the wire has of its own: a filter operator in any of its
// spellings, and `select`'s actions (the engine's name rows; `all` and `none` name none). Every
// other set of names is one type the engine and the wire share (`DataTableVocabulary`).

extension FilterOperator {
    init(_ op: FilterOp) {
        switch op {
        case .equal, .equalASCII: self = .equal
        case .notEqual, .notEqualASCII, .notEqualSQL: self = .notEqual
        case .less: self = .less
        case .lessOrEqual, .lessOrEqualASCII: self = .lessOrEqual
        case .greater: self = .greater
        case .greaterOrEqual, .greaterOrEqualASCII: self = .greaterOrEqual
        case .between: self = .between
        case .oneOf: self = .oneOf
        case .contains: self = .contains
        case .startsWith: self = .startsWith
        case .matches: self = .matches
        case .empty: self = .empty
        case .notEmpty: self = .notEmpty
        }
    }
}

extension SelectAction {
    /// The action that changes the rows a `select` names; `nil` for `all` and `none`, which
    /// name no rows.
    init?(_ action: SelectionAction) {
        switch action {
        case .set: self = .set
        case .add: self = .add
        case .remove: self = .remove
        case .toggle: self = .toggle
        case .all, .none: return nil
        }
    }
}
