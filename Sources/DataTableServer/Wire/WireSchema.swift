import DataTableEngine
import DataTableProtocol

/// Column definitions and sort keys between the wire and the engine.
enum WireSchema {
    static func column(_ definition: ColumnDefinition, field: String) throws(ResponseError) -> Column {
        if let expression = definition.expression { return try computed(definition, expression, field: field) }
        let type = definition.type ?? .text
        func bound(_ value: JSONValue?, _ name: String) throws(ResponseError) -> CellInput? {
            guard let value else { return nil }
            return try WireValues.cellInput(value, field: "\(field).\(name)")
        }
        let minimum = try bound(definition.min, "min")
        let maximum = try bound(definition.max, "max")
        let style = try style(definition.format, field: field + ".format")
        let rules: ColumnRules
        do throws(ValidationFailure) {
            rules = try ColumnRules(
                type: type,
                required: definition.required ?? false,
                maxLength: definition.maxLength,
                pattern: definition.pattern,
                minimum: minimum,
                maximum: maximum,
                decimals: definition.decimals,
                options: definition.options ?? [],
                style: style
            )
        } catch {
            throw .invalidValue("\(field) (\(definition.key)): \(error.message)", field: field)
        }
        return Column(
            key: definition.key,
            label: definition.label,
            rules: rules,
            editable: definition.editable,
            layout: definition.hints
        )
    }

    /// A computed column from its definition: only the members a computed column takes.
    private static func computed(_ definition: ColumnDefinition, _ expression: String, field: String)
        throws(ResponseError) -> Column
    {
        let refused: [(String, Bool)] = [
            ("required", definition.required != nil), ("maxLength", definition.maxLength != nil),
            ("pattern", definition.pattern != nil), ("min", definition.min != nil), ("max", definition.max != nil),
            ("options", definition.options != nil), ("editable", definition.editable == true),
        ]
        if let (name, _) = refused.first(where: \.1) {
            throw .invalidValue(
                "\(field) (\(definition.key)): \(name) does not apply to a computed column; its values come "
                    + "from its expression.",
                field: "\(field).\(name)"
            )
        }
        return Column(
            key: definition.key,
            label: definition.label,
            expression: ColumnExpression(
                source: expression,
                declaredType: definition.type,
                decimals: definition.decimals,
                style: try style(definition.format, field: field + ".format")
            ),
            layout: definition.hints
        )
    }

    /// The locale `name` names (a tag like `en-GB`, or its language alone); another name is
    /// `invalid_value` at `field`.
    static func locale(_ name: String, field: String) throws(ResponseError) -> DisplayLocale {
        guard let named = DisplayLocale(named: name), named != .plain else {
            let names = DisplayLocale.allCases.filter { $0 != .plain }.map(\.rawValue).joined(separator: ", ")
            throw .invalidValue("\(field) must be one of \(names) (or the language alone).", field: field)
        }
        return named
    }

    /// A column's display style from its `format`; an unknown locale is `invalid_value`.
    static func style(_ format: ColumnFormat?, field: String) throws(ResponseError) -> DisplayStyle? {
        guard let format else { return nil }
        let locale =
            try format.locale.map { name throws(ResponseError) in try Self.locale(name, field: field + ".locale") }
            ?? .plain
        var zone: DisplayZone?
        if let name = format.zone {
            guard let named = DisplayZone(named: name) else {
                throw .invalidValue(
                    "\(field).zone must be UTC, an offset like +02:00, or a zone like Europe/Berlin.",
                    field: field + ".zone"
                )
            }
            zone = named
        }
        return DisplayStyle(
            grouping: format.grouping ?? false,
            percent: format.percent ?? false,
            prefix: format.prefix ?? "",
            suffix: format.suffix ?? "",
            locale: locale,
            zone: zone
        )
    }

    /// The `format` a column's style is given as; `nil` for the plain form.
    static func format(_ style: DisplayStyle?) -> ColumnFormat? {
        guard let style else { return nil }
        return ColumnFormat(
            grouping: style.grouping ? true : nil,
            percent: style.percent ? true : nil,
            prefix: style.prefix.isEmpty ? nil : style.prefix,
            suffix: style.suffix.isEmpty ? nil : style.suffix,
            locale: style.locale == .plain ? nil : style.locale.rawValue,
            zone: style.zone?.name
        )
    }

    static func columns(_ definitions: [ColumnDefinition], field: String = "params.columns") throws(ResponseError)
        -> [Column]
    {
        var columns: [Column] = []
        for (index, definition) in definitions.enumerated() {
            columns.append(try column(definition, field: "\(field)[\(index)]"))
        }
        return columns
    }

    static func definition(_ column: Column) -> ColumnDefinition {
        let rules = column.rules
        func bound(_ value: CellValue?) -> JSONValue? { value.map { WireValues.json($0, rules: rules) } }
        let layout = column.layout
        var definition = ColumnDefinition(
            key: column.key,
            label: column.label,
            type: column.type,
            editable: column.editable,
            required: rules.required ? true : nil,
            maxLength: rules.maxLength,
            pattern: rules.pattern,
            min: bound(rules.minimum),
            max: bound(rules.maximum),
            decimals: rules.decimals,
            options: rules.options.isEmpty ? nil : rules.options,
            format: format(rules.style),
            width: layout.width,
            minWidth: layout.minWidth,
            maxWidth: layout.maxWidth,
            align: layout.align,
            lines: layout.lineCount == 1 ? nil : layout.lineCount,
            sticky: layout.isSticky ? true : nil,
            binding: layout.binding,
            hidden: layout.hidden == true ? true : nil
        )
        if let expression = column.expression {
            // A computed column says its expression, and how it shows its values; until a table
            // has checked it, its type is what the definition said, if anything.
            definition.type = expression.declaredType
            definition.expression = expression.source
            definition.editable = nil
            definition.decimals = expression.decimals
            definition.format = format(expression.style)
        }
        return definition
    }

    static func sortKeys(_ keys: [SortKeyParam]) -> [SortKey] {
        keys.map { SortKey(column: $0.column, descending: $0.descending ?? false) }
    }

    static func sortParams(_ keys: [SortKey]) -> [SortKeyParam] {
        keys.map { SortKeyParam(column: $0.column, descending: $0.descending) }
    }
}
