import DataTableProtocol

/// `scroll` replies are the largest and most frequent: they write themselves.
extension ScrollRequest.Response: DirectJSON {
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("accessories")
        writer.beginObject()
        let sides: [(StaticString, LayoutRequest.Accessory?)] = [
            ("left", accessories.left), ("right", accessories.right),
        ]
        for (name, accessory) in sides {
            guard let accessory else { continue }
            writer.member(name)
            writer.beginObject()
            writer.member("kind", accessory.kind)
            writer.member("width", accessory.width)
            writer.member("x", accessory.x)
            writer.endObject()
        }
        writer.endObject()
        writer.member("columns")
        writer.beginArray()
        for column in columns {
            writer.element()
            writer.beginObject()
            writer.member("align", column.align)
            writer.member("binding", ifPresent: column.binding)
            writer.member("header", column.header)
            writer.member("key", column.key)
            writer.member("lines", column.lines)
            writer.member("sticky", ifPresent: column.sticky)
            writer.member("width", column.width)
            writer.member("x", column.x)
            writer.endObject()
        }
        writer.endArray()
        writer.member("contentHeight", contentHeight)
        writer.member("contentWidth", contentWidth)
        writer.member("errors", errors)
        writer.member("first", ifPresent: first)
        writer.member("header")
        writer.beginObject()
        writer.member("height", header.height)
        writer.member("shadow", header.shadow)
        writer.endObject()
        writer.member("last", ifPresent: last)
        writer.member("mode", mode)
        writer.member("newAbove", newAbove)
        writer.member("rows")
        writer.beginArray()
        for row in rows {
            writer.element()
            writer.beginObject()
            writer.member("cells", row.cells)
            writer.member("drafts", ifPresent: row.drafts)
            writer.member("height", row.height)
            writer.member("highlight", ifPresent: row.highlight)
            writer.member("id")
            writer.value(row.id)
            writer.member("index", row.index)
            writer.member("readOnly", ifPresent: row.readOnly)
            writer.member("selected", ifPresent: row.selected)
            writer.member("tall", ifPresent: row.tall)
            writer.member("y", row.y)
            writer.endObject()
        }
        writer.endArray()
        writer.member("selected", selected)
        writer.member("table", table)
        writer.member("total", total)
        writer.member("unit", unit)
        writer.member("version", version)
        writer.member("viewport")
        writer.beginObject()
        writer.member("height", viewport.height)
        writer.member("width", viewport.width)
        writer.member("x", viewport.x)
        writer.member("y", viewport.y)
        writer.endObject()
        writer.endObject()
    }
}
