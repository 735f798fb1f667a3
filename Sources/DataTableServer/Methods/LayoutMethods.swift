import DataTableEngine
import DataTableProtocol
import TextMeasure

extension MethodTable {
    /// `layout` (protocol.md, "Layout").
    mutating func registerLayoutMethods() {
        register(LayoutRequest.self) { request, context in
            // Fonts are found and opened before the table is locked.
            let resolved = try LayoutParams(request, fonts: context.server.fonts)
            // The first layout in a font measures every row: on a copy, off the lock.
            try await context.server.measure(request.table, for: resolved.options, by: context.requester)
            let view = request.view == true ? context.views[request.table]?.state : nil
            return try context.server.readKeeping(request.table, by: context.requester) { table in
                let plan =
                    try view.map { view throws(TableError) in try table.layout(resolved.options, view: view) }
                    ?? table.layout(resolved.options)
                return resolved.response(plan, table: table)
            }
        }
    }
}

/// `layout`'s params checked and turned into ``LayoutOptions``, with the fonts they name.
struct LayoutParams {
    var options: LayoutOptions
    /// The fonts measured with, for the reply (pt only).
    var fonts: LayoutRequest.Fonts?

    /// The widest container a layout accepts.
    static let maxWidth = 1_000_000.0

    /// `widthField` names the width in errors (`scroll` takes it from its viewport).
    init(_ request: LayoutRequest, fonts library: FontLibrary, widthField: String = "params.width")
        throws(ResponseError)
    {
        guard request.width.isFinite, request.width >= 1, request.width <= Self.maxWidth else {
            let name = widthField.dropFirst("params.".count)
            throw .invalidParams("\(name) must be from 1 to \(Int(Self.maxWidth)).", field: widthField)
        }
        let unit = request.unit ?? .pt
        let width = Int(request.width)
        switch unit {
        case .cell:
            options = LayoutOptions(unit: .cell, width: width, data: .cells, header: .cells)
        case .pt:
            let data = try Self.font(request.font, style: "Regular", size: 15, field: "params.font", library)
            let header = try Self.font(
                request.headerFont,
                style: "Semibold",
                size: 13,
                field: "params.headerFont",
                library
            )
            options = LayoutOptions(unit: .pt, width: width, data: data.style, header: header.style)
            fonts = LayoutRequest.Fonts(data: data.reply, header: header.reply)
        }
        options.sizeClass = request.sizeClass ?? .regular
        options.horizontalScroll = request.horizontalScroll ?? false
        options.leftAccessory = request.leftAccessory
        options.rightAccessory = request.rightAccessory
        options.stickyFirstColumn = request.stickyFirstColumn
        if let name = request.zone {
            guard let zone = DisplayZone(named: name) else {
                throw .invalidValue(
                    "zone must be UTC, an offset like +02:00, or a zone like Europe/Berlin.",
                    field: "params.zone"
                )
            }
            options.zone = zone
        }
        for (name, value, keyPath) in [
            ("minShare", request.minShare, \LayoutOptions.minShare), ("maxShare", request.maxShare, \.maxShare),
        ] {
            guard let value else { continue }
            guard value > 0, value <= 1 else {
                throw .invalidParams("\(name) must be more than 0 and at most 1.", field: "params." + name)
            }
            options[keyPath: keyPath] = value
        }
        guard options.minShare <= options.maxShare else {
            throw .invalidParams(
                "minShare (\(options.minShare)) must not be greater than maxShare (\(options.maxShare)).",
                field: request.minShare != nil ? "params.minShare" : "params.maxShare"
            )
        }
        if let padding = request.padding {
            let lengths: [(String, Int?, WritableKeyPath<LayoutOptions, Int>)] = [
                ("cell", padding.cell, \.cellPadding), ("header", padding.header, \.headerPadding),
                ("row", padding.row, \.rowPadding), ("spacing", padding.spacing, \.spacing),
                ("minRowHeight", padding.minRowHeight, \.minRowHeight), ("image", padding.image, \.imageWidth),
                ("accessory", padding.accessory, \.accessoryWidth),
            ]
            for (name, value, keyPath) in lengths {
                guard let value else { continue }
                guard value >= 0, value <= 10_000 else {
                    throw .invalidParams("padding.\(name) must be from 0 to 10000.", field: "params.padding." + name)
                }
                options[keyPath: keyPath] = value
            }
        }
        options.columnOrder = request.columnOrder ?? []
        for (key, hints) in request.columns ?? [:] {
            options.columns[key] = hints
        }
    }

    /// The reply for `plan`.
    func response(_ plan: LayoutPlan, table: Table) -> LayoutRequest.Response {
        func accessory(_ placed: LayoutPlan.PlacedAccessory?) -> LayoutRequest.Accessory? {
            placed.map { .init(kind: $0.kind, x: $0.x, width: $0.width) }
        }
        return LayoutRequest.Response(
            table: table.name,
            version: Int(table.version),
            mode: plan.mode.rawValue,
            unit: plan.unit,
            sizeClass: plan.sizeClass,
            horizontalScroll: plan.horizontalScroll,
            width: plan.width,
            columns: plan.columns.map { column in
                .init(
                    key: column.key,
                    x: column.x,
                    width: column.width,
                    align: column.align,
                    lines: column.lines,
                    truncated: column.truncated,
                    omitted: column.omitted,
                    header: column.header,
                    binding: column.binding,
                    sort: table.sortDirection(of: column.key),
                    readOnly: table.columnIsReadOnly(key: column.key) ? true : nil
                )
            },
            accessories: .init(left: accessory(plan.leftAccessory), right: accessory(plan.rightAccessory)),
            sticky: plan.sticky.map { .init(column: $0.key, width: $0.width, minWidth: $0.minWidth) },
            header: .init(height: plan.headerHeight, lines: plan.headerLines, lineHeight: plan.headerLineHeight),
            rows: .init(
                count: plan.rowCount,
                height: plan.rowHeight,
                twoLineHeight: plan.twoLineRowHeight,
                twoLineCount: plan.twoLineRows,
                lineHeight: plan.lineHeight
            ),
            contentWidth: plan.contentWidth,
            contentHeight: plan.contentHeight,
            bindings: plan.mode == .list
                ? plan.bindings.map { .init(binding: $0.binding, column: $0.column) } : nil,
            fonts: fonts.map { fonts in
                // The fallbacks as they are now, after this layout measured.
                LayoutRequest.Fonts(
                    data: Self.withFallbacks(fonts.data, options.data),
                    header: Self.withFallbacks(fonts.header, options.header)
                )
            }
        )
    }

    /// `reply` naming the fonts `style`'s face fell back to so far, if any.
    static func withFallbacks(_ reply: LayoutRequest.FontReply, _ style: TextStyle) -> LayoutRequest.FontReply {
        guard let face = style.measure as? FontFace else { return reply }
        let used = face.fallbacksUsed
        var reply = reply
        reply.fallbacks = used.isEmpty ? nil : used.map { .init(family: $0.family ?? "", file: $0.path) }
        return reply
    }

    /// The face a font param names, at its size.
    private static func font(
        _ param: LayoutRequest.FontParam?,
        style defaultStyle: String,
        size defaultSize: Double,
        field: String,
        _ library: FontLibrary
    ) throws(ResponseError) -> (style: TextStyle, reply: LayoutRequest.FontReply) {
        let size = param?.size ?? defaultSize
        guard size >= 1, size <= 1000 else {
            throw .invalidParams("\(field).size must be from 1 to 1000 points.", field: field + ".size")
        }
        if let index = param?.index, !(0...Int(UInt16.max)).contains(index) {
            throw .invalidParams("\(field).index must be from 0 to \(UInt16.max).", field: field + ".index")
        }
        let face: FontFace
        do throws(FontError) {
            if let file = param?.file {
                face = try library.face(path: file, index: param?.index ?? 0)
            } else {
                face = try library.face(family: param?.family ?? "DejaVu Sans", style: param?.style ?? defaultStyle)
            }
        } catch {
            throw .invalidParams(error.message, field: param?.file != nil ? field + ".file" : field + ".family")
        }
        return (
            TextStyle(measure: face, size: size),
            LayoutRequest.FontReply(family: face.family, style: face.style, file: face.path, size: size)
        )
    }
}
