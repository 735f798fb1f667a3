import DataTableEngine
import DataTableProtocol

// The engine's value for each name a param takes from a fixed set (the protocol's
// ``WireChoice`` enums), and back for replies: one case for one case, so a name added on one side
// and not the other does not compile.

extension LayoutOptions.Unit {
    init(_ unit: LengthUnit) {
        switch unit {
        case .pt: self = .pt
        case .cell: self = .cell
        }
    }
}

extension LengthUnit {
    init(_ unit: LayoutOptions.Unit) {
        switch unit {
        case .pt: self = .pt
        case .cell: self = .cell
        }
    }
}

extension LayoutOptions.SizeClass {
    init(_ sizeClass: SizeClass) {
        switch sizeClass {
        case .compact: self = .compact
        case .regular: self = .regular
        }
    }
}

extension SizeClass {
    init(_ sizeClass: LayoutOptions.SizeClass) {
        switch sizeClass {
        case .compact: self = .compact
        case .regular: self = .regular
        }
    }
}

extension Accessory {
    init(_ accessory: RowAccessory) {
        switch accessory {
        case .none: self = .none
        case .checkbox: self = .checkbox
        case .syncStatus: self = .syncStatus
        case .chevron: self = .chevron
        }
    }
}

extension RowAccessory {
    init(_ accessory: Accessory) {
        switch accessory {
        case .none: self = .none
        case .checkbox: self = .checkbox
        case .syncStatus: self = .syncStatus
        case .chevron: self = .chevron
        }
    }
}

extension ColumnLayout.Alignment {
    init(_ alignment: ColumnAlignment) {
        switch alignment {
        case .leading: self = .leading
        case .center: self = .center
        case .trailing: self = .trailing
        }
    }
}

extension ColumnAlignment {
    init(_ alignment: ColumnLayout.Alignment) {
        switch alignment {
        case .leading: self = .leading
        case .center: self = .center
        case .trailing: self = .trailing
        }
    }
}

extension ListBinding {
    init(_ binding: ColumnBinding) {
        switch binding {
        case .headline: self = .headline
        case .subheadline: self = .subheadline
        case .footnote: self = .footnote
        case .status: self = .status
        case .substatus: self = .substatus
        case .statusImage: self = .statusImage
        case .substatusImage: self = .substatusImage
        case .detailImage: self = .detailImage
        case .icon: self = .icon
        case .syncStatus: self = .syncStatus
        case .drillDown: self = .drillDown
        }
    }
}

extension ColumnBinding {
    init(_ binding: ListBinding) {
        switch binding {
        case .headline: self = .headline
        case .subheadline: self = .subheadline
        case .footnote: self = .footnote
        case .status: self = .status
        case .substatus: self = .substatus
        case .statusImage: self = .statusImage
        case .substatusImage: self = .substatusImage
        case .detailImage: self = .detailImage
        case .icon: self = .icon
        case .syncStatus: self = .syncStatus
        case .drillDown: self = .drillDown
        }
    }
}

extension ColumnType {
    init(_ type: ColumnValueType) {
        switch type {
        case .text: self = .text
        case .number: self = .number
        case .date: self = .date
        case .time: self = .time
        case .duration: self = .duration
        case .picker: self = .picker
        case .image: self = .image
        case .boolean: self = .boolean
        case .datetime: self = .datetime
        }
    }
}

extension ColumnValueType {
    init(_ type: ColumnType) {
        switch type {
        case .text: self = .text
        case .number: self = .number
        case .date: self = .date
        case .time: self = .time
        case .duration: self = .duration
        case .picker: self = .picker
        case .image: self = .image
        case .boolean: self = .boolean
        case .datetime: self = .datetime
        }
    }
}

extension ViewState.Follow {
    init(_ edge: FollowEdge) {
        switch edge {
        case .none: self = .none
        case .top: self = .top
        case .bottom: self = .bottom
        }
    }
}

extension ScrollAlignment {
    init(_ alignment: TargetAlignment) {
        switch alignment {
        case .top: self = .top
        case .center: self = .center
        case .bottom: self = .bottom
        case .nearest: self = .nearest
        }
    }
}

extension SectionSpec.Style {
    init(_ style: SectionStyle) {
        switch style {
        case .plain: self = .plain
        case .grouped: self = .grouped
        case .insetGrouped: self = .insetGrouped
        }
    }
}

extension SectionStyle {
    init(_ style: SectionSpec.Style) {
        switch style {
        case .plain: self = .plain
        case .grouped: self = .grouped
        case .insetGrouped: self = .insetGrouped
        }
    }
}

extension SelectionMode {
    init(_ mode: RowSelectionMode) {
        switch mode {
        case .none: self = .none
        case .single: self = .single
        case .multiple: self = .multiple
        }
    }
}

extension RowSelectionMode {
    init(_ mode: SelectionMode) {
        switch mode {
        case .none: self = .none
        case .single: self = .single
        case .multiple: self = .multiple
        }
    }
}

extension DataFormat {
    init(_ format: DataFileFormat) {
        switch format {
        case .csv: self = .csv
        case .ndjson: self = .ndjson
        }
    }
}

extension DataFileFormat {
    init(_ format: DataFormat) {
        switch format {
        case .csv: self = .csv
        case .ndjson: self = .ndjson
        }
    }
}

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
