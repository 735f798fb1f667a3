import DataTableProtocol
import Foundation

/// JSON text written straight into bytes: for replies that are large or frequent enough that
/// `JSONEncoder`'s generic machinery costs more than the work behind them (`scroll`).
///
/// Writers put object keys in sorted order, as ``ReplyEncoding`` does, so a reply reads the same
/// either way; tests hold the two to the same JSON.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    /// Per open object or array: whether a member is already in it (the next needs a comma).
    private var filled: [Bool] = []

    init(capacity: Int = 4096) { bytes.reserveCapacity(capacity) }

    /// Makes room for `count` more bytes at once (a large string about to be written), so the
    /// buffer is not copied again and again as it grows.
    mutating func reserve(_ count: Int) { bytes.reserveCapacity(bytes.count + count) }

    /// Text that is already JSON.
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// `"key":`, for a key that needs no escaping.
    mutating func key(_ name: StaticString) {
        bytes.append(UInt8(ascii: "\""))
        raw(name)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    mutating func comma() { bytes.append(UInt8(ascii: ",")) }

    // MARK: Objects and arrays, commas placed for the caller

    mutating func beginObject() { open(UInt8(ascii: "{")) }
    mutating func endObject() { close(UInt8(ascii: "}")) }
    mutating func beginArray() { open(UInt8(ascii: "[")) }
    mutating func endArray() { close(UInt8(ascii: "]")) }

    /// Starts the next member of the open object: `"key":`; its value comes next.
    mutating func member(_ name: StaticString) {
        separate()
        key(name)
    }

    /// Starts the next element of the open array.
    mutating func element() { separate() }

    /// `"key":[…]`, each element written by `write`.
    mutating func member<Element>(
        _ name: StaticString,
        each elements: [Element],
        _ write: (inout JSONWriter, Element) -> Void
    ) {
        member(name)
        beginArray()
        for value in elements {
            element()
            write(&self, value)
        }
        endArray()
    }

    /// An object of `members`, keys sorted, each value written by `write`.
    mutating func object<Value>(sortedKeys members: [String: Value], _ write: (inout JSONWriter, Value) -> Void) {
        bytes.append(UInt8(ascii: "{"))
        for (index, key) in members.keys.sorted().enumerated() {
            if index > 0 { comma() }
            string(key)
            bytes.append(UInt8(ascii: ":"))
            write(&self, members[key]!)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    mutating func member(_ name: StaticString, _ value: Int) {
        member(name)
        int(value)
    }

    mutating func member(_ name: StaticString, _ value: String) {
        member(name)
        string(value)
    }

    mutating func member(_ name: StaticString, _ value: Bool) {
        member(name)
        bool(value)
    }

    mutating func member(_ name: StaticString, _ values: [String]) {
        member(name)
        strings(values)
    }

    /// A member only when there is a value.
    mutating func member(_ name: StaticString, ifPresent value: Int?) {
        if let value { member(name, value) }
    }

    mutating func member(_ name: StaticString, ifPresent value: String?) {
        if let value { member(name, value) }
    }

    mutating func member(_ name: StaticString, ifPresent value: Bool?) {
        if let value { member(name, value) }
    }

    mutating func member(_ name: StaticString, ifPresent values: [String]?) {
        if let values { member(name, values) }
    }

    mutating func member(_ name: StaticString, ifPresent value: Double?) {
        guard let value else { return }
        member(name)
        double(value)
    }

    /// Rejected drafts by column key: `{"qty":{"error":…,"text":…},…}`, keys sorted.
    mutating func member(_ name: StaticString, ifPresent drafts: [String: DraftReply]?) {
        guard let drafts else { return }
        member(name)
        beginObject()
        for key in drafts.keys.sorted() {
            separate()
            string(key)
            bytes.append(UInt8(ascii: ":"))
            beginObject()
            member("error", drafts[key]!.error)
            member("text", drafts[key]!.text)
            endObject()
        }
        endObject()
    }

    private mutating func open(_ bracket: UInt8) {
        bytes.append(bracket)
        filled.append(false)
    }

    private mutating func close(_ bracket: UInt8) {
        bytes.append(bracket)
        filled.removeLast()
    }

    private mutating func separate() {
        guard let last = filled.indices.last else { return }
        if filled[last] { comma() }
        filled[last] = true
    }

    /// A whole number, its digits written in place (no string made for it).
    mutating func int(_ value: Int) {
        guard value != .min else { return bytes.append(contentsOf: String(value).utf8) }
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // up to 24 digits, one per byte
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[23 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            bytes.append(contentsOf: buffer[(24 - count)...])
        }
    }

    mutating func bool(_ value: Bool) { value ? raw("true") : raw("false") }

    /// A finite number (non-finite ones are written as null).
    mutating func double(_ value: Double) {
        guard value.isFinite else { return raw("null") }
        if value.rounded() == value, abs(value) < 1e15 {
            int(Int(value))
        } else {
            bytes.append(contentsOf: value.description.utf8)
        }
    }

    /// A string with `"`, `\` and control characters escaped; everything else as UTF-8. The
    /// runs between escapes are copied whole.
    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var start = 0
            var index = 0
            let count = utf8.count
            while index < count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C else {
                    index += 1
                    continue
                }
                if index > start { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index])) }
                escape(byte)
                index += 1
                start = index
            }
            if count > start { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<count])) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case 0x22: raw(#"\""#)
        case 0x5C: raw(#"\\"#)
        case 0x0A: raw(#"\n"#)
        case 0x0D: raw(#"\r"#)
        case 0x09: raw(#"\t"#)
        case 0x08: raw(#"\b"#)
        case 0x0C: raw(#"\f"#)
        default:
            let hex: StaticString = "0123456789abcdef"
            raw(#"\u00"#)
            hex.withUTF8Buffer { hex in
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            }
        }
    }

    /// An object of strings, keys sorted.
    mutating func strings(byKey members: [String: String]) {
        object(sortedKeys: members) { $0.string($1) }
    }

    mutating func strings(_ texts: [String]) {
        bytes.append(UInt8(ascii: "["))
        for (index, text) in texts.enumerated() {
            if index > 0 { comma() }
            string(text)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Any JSON value, object keys sorted.
    mutating func value(_ value: JSONValue) {
        switch value {
        case .null: raw("null")
        case .bool(let flag): bool(flag)
        case .integer(let number): int(Int(number))
        case .number(let number): double(number)
        case .string(let text): string(text)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { comma() }
                self.value(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            object(sortedKeys: members) { $0.value($1) }
        }
    }

    mutating func requestID(_ id: RequestID) {
        switch id {
        case .integer(let number): int(Int(number))
        case .number(let number): double(number)
        case .string(let text): string(text)
        case .null: raw("null")
        }
    }
}

/// A reply result that writes its own JSON (keys sorted), bypassing `JSONEncoder`.
protocol DirectJSON {
    func write(to writer: inout JSONWriter)
}

/// `ping` is the cheapest request there is; its reply should cost no more.
extension PingRequest.Response: DirectJSON {
    func write(to writer: inout JSONWriter) {
        writer.raw(#"{"pong":"#)
        writer.bool(pong)
        writer.raw("}")
    }
}

/// `get` of a row or a few is the table's small command: its reply writes itself too.
extension GetRequest.Response: DirectJSON {
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("errors", errors)
        writer.member("rows")
        writer.beginArray()
        for row in rows {
            writer.element()
            writer.beginObject()
            writer.member("display")
            writer.strings(byKey: row.display)
            writer.member("drafts", ifPresent: row.drafts)
            writer.member("highlight", ifPresent: row.highlight)
            writer.member("id")
            writer.value(row.id)
            writer.member("index", row.index)
            writer.member("readOnly", ifPresent: row.readOnly)
            writer.member("selected", row.selected)
            writer.member("values")
            writer.value(.object(row.values))
            writer.endObject()
        }
        writer.endArray()
        writer.member("table", table)
        writer.member("total", total)
        writer.member("version", version)
        writer.endObject()
    }
}

/// `edit`'s reply, for the edit of one cell that a grid sends on every keystroke's commit.
extension EditRequest.Response: DirectJSON {
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("cells", each: cells) { $0.cell($1) }
        writer.member("edited", edited)
        writer.member("errors", errors)
        writer.member("table", table)
        writer.member("version", version)
        writer.endObject()
    }
}

/// `add`'s reply.
extension AddRequest.Response: DirectJSON {
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("added", each: added) { writer, row in
            writer.beginObject()
            writer.member("addedAt", row.addedAt)
            writer.member("id")
            writer.value(row.id)
            writer.member("index", row.index)
            writer.member("scrollTo", ifPresent: row.scrollTo)
            writer.endObject()
        }
        writer.member("rows", rows)
        writer.member("table", table)
        writer.member("version", version)
        writer.endObject()
    }
}

/// `select`'s reply.
extension SelectRequest.Response: DirectJSON {
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("count", count)
        writer.member("mode", mode)
        writer.member("table", table)
        writer.member("version", version)
        writer.endObject()
    }
}

extension JSONWriter {
    /// One cell as stored: `{"column":…,"display":…,"id":…,"index":…,"value":…}`.
    mutating func cell(_ cell: CellReply) {
        beginObject()
        member("column", cell.column)
        member("display", cell.display)
        member("id")
        value(cell.id)
        member("index", cell.index)
        member("value")
        value(cell.value)
        endObject()
    }
}
