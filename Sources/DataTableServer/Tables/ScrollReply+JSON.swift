import DataTableProtocol

/// `scroll` replies are the largest and most frequent: they write themselves.
extension ScrollRequest.Response: DirectJSON {
    func write(to writer: inout JSONWriter) {
        writer.raw("{")
        writer.key("accessories")
        writer.raw("{")
        if let left = accessories.left {
            writer.key("left")
            Self.write(left, to: &writer)
        }
        if let right = accessories.right {
            if accessories.left != nil { writer.comma() }
            writer.key("right")
            Self.write(right, to: &writer)
        }
        writer.raw("},")
        writer.key("columns")
        writer.raw("[")
        for (index, column) in columns.enumerated() {
            if index > 0 { writer.comma() }
            writer.raw("{")
            writer.key("align")
            writer.string(column.align)
            if let binding = column.binding {
                writer.raw(",")
                writer.key("binding")
                writer.string(binding)
            }
            writer.raw(",")
            writer.key("header")
            writer.strings(column.header)
            writer.raw(",")
            writer.key("key")
            writer.string(column.key)
            writer.raw(",")
            writer.key("lines")
            writer.int(column.lines)
            if let sticky = column.sticky {
                writer.raw(",")
                writer.key("sticky")
                writer.bool(sticky)
            }
            writer.raw(",")
            writer.key("width")
            writer.int(column.width)
            writer.raw(",")
            writer.key("x")
            writer.int(column.x)
            writer.raw("}")
        }
        writer.raw("],")
        writer.key("contentHeight")
        writer.int(contentHeight)
        writer.raw(",")
        writer.key("contentWidth")
        writer.int(contentWidth)
        writer.raw(",")
        writer.key("errors")
        writer.int(errors)
        if let first {
            writer.raw(",")
            writer.key("first")
            writer.int(first)
        }
        writer.raw(",")
        writer.key("header")
        writer.raw("{")
        writer.key("height")
        writer.int(header.height)
        writer.raw(",")
        writer.key("shadow")
        writer.bool(header.shadow)
        writer.raw("}")
        if let last {
            writer.raw(",")
            writer.key("last")
            writer.int(last)
        }
        writer.raw(",")
        writer.key("mode")
        writer.string(mode)
        writer.raw(",")
        writer.key("newAbove")
        writer.int(newAbove)
        writer.raw(",")
        writer.key("rows")
        writer.raw("[")
        for (index, row) in rows.enumerated() {
            if index > 0 { writer.comma() }
            Self.write(row, to: &writer)
        }
        writer.raw("],")
        writer.key("selected")
        writer.int(selected)
        writer.raw(",")
        writer.key("table")
        writer.string(table)
        writer.raw(",")
        writer.key("total")
        writer.int(total)
        writer.raw(",")
        writer.key("unit")
        writer.string(unit)
        writer.raw(",")
        writer.key("version")
        writer.int(version)
        writer.raw(",")
        writer.key("viewport")
        writer.raw("{")
        writer.key("height")
        writer.int(viewport.height)
        writer.raw(",")
        writer.key("width")
        writer.int(viewport.width)
        writer.raw(",")
        writer.key("x")
        writer.int(viewport.x)
        writer.raw(",")
        writer.key("y")
        writer.int(viewport.y)
        writer.raw("}}")
    }

    private static func write(_ accessory: LayoutRequest.Accessory, to writer: inout JSONWriter) {
        writer.raw("{")
        writer.key("kind")
        writer.string(accessory.kind)
        writer.raw(",")
        writer.key("width")
        writer.int(accessory.width)
        writer.raw(",")
        writer.key("x")
        writer.int(accessory.x)
        writer.raw("}")
    }

    private static func write(_ row: ScrollRequest.Row, to writer: inout JSONWriter) {
        writer.raw("{")
        writer.key("cells")
        writer.strings(row.cells)
        if let drafts = row.drafts {
            writer.raw(",")
            writer.key("drafts")
            writer.raw("{")
            for (index, key) in drafts.keys.sorted().enumerated() {
                if index > 0 { writer.comma() }
                writer.string(key)
                writer.raw(":{")
                writer.key("error")
                writer.string(drafts[key]!.error)
                writer.raw(",")
                writer.key("text")
                writer.string(drafts[key]!.text)
                writer.raw("}")
            }
            writer.raw("}")
        }
        writer.raw(",")
        writer.key("height")
        writer.int(row.height)
        if let highlight = row.highlight {
            writer.raw(",")
            writer.key("highlight")
            writer.double(highlight)
        }
        writer.raw(",")
        writer.key("id")
        writer.value(row.id)
        writer.raw(",")
        writer.key("index")
        writer.int(row.index)
        if let readOnly = row.readOnly {
            writer.raw(",")
            writer.key("readOnly")
            writer.strings(readOnly)
        }
        if let selected = row.selected {
            writer.raw(",")
            writer.key("selected")
            writer.bool(selected)
        }
        if let tall = row.tall {
            writer.raw(",")
            writer.key("tall")
            writer.bool(tall)
        }
        writer.raw(",")
        writer.key("y")
        writer.int(row.y)
        writer.raw("}")
    }
}
