import DataTableEngine
import DataTableProtocol
import Foundation

/// JSON text written straight into bytes: for replies that are large or frequent enough that
/// `JSONEncoder`'s generic machinery costs more than the work behind them (`scroll`).
///
/// Writers put object keys in sorted order, as ``ReplyEncoding`` does, so a reply reads the same
/// either way; tests hold the two to the same JSON.
struct JSONWriter: ~Copyable {
    /// The bytes written.
    private var buffer: GrowingBytes
    /// Per open object or array, one bit from the lowest: whether a member is already in it
    /// (the next needs a comma). Replies nest a few levels; 64 is plenty.
    private var filled: UInt64 = 0
    private var depth = 0

    init(capacity: Int = 4096) {
        buffer = GrowingBytes(capacity: max(64, capacity))
    }

    /// How many bytes have been written.
    var count: Int { buffer.count }

    /// A copy of what has been written.
    var bytes: [UInt8] { buffer.bytes }

    /// What has been written, handed over without a copy.
    consuming func data() -> Data {
        let taken = buffer.take()
        return Data(
            bytesNoCopy: taken.baseAddress!,
            count: taken.count,
            deallocator: .custom { pointer, _ in pointer.deallocate() }
        )
    }

    /// Makes room for `extra` more bytes at once (a large string about to be written), so the
    /// buffer is not copied again and again as it grows.
    @inline(__always) mutating func reserve(_ extra: Int) { buffer.reserve(extra) }

    @inline(__always) mutating func append(_ byte: UInt8) { buffer.append(byte) }

    @inline(__always) mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) { buffer.append(bytes) }

    /// Text that is already JSON.
    @inline(__always) mutating func raw(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// `"key":`, for a key that needs no escaping.
    mutating func key(_ name: StaticString) {
        reserve(name.utf8CodeUnitCount + 3)
        append(UInt8(ascii: "\""))
        raw(name)
        append(UInt8(ascii: "\""))
        append(UInt8(ascii: ":"))
    }

    mutating func comma() { append(UInt8(ascii: ",")) }

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
        append(UInt8(ascii: "{"))
        for (index, key) in members.keys.sorted().enumerated() {
            if index > 0 { comma() }
            string(key)
            append(UInt8(ascii: ":"))
            write(&self, members[key]!)
        }
        append(UInt8(ascii: "}"))
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

    private mutating func open(_ bracket: UInt8) {
        precondition(depth < 64, "JSON replies nest at most 64 levels")
        append(bracket)
        depth += 1
        filled &= ~(1 << (depth - 1))
    }

    private mutating func close(_ bracket: UInt8) {
        append(bracket)
        depth -= 1
    }

    private mutating func separate() {
        guard depth > 0 else { return }
        let bit: UInt64 = 1 << (depth - 1)
        if filled & bit != 0 { comma() }
        filled |= bit
    }

    /// A whole number, its digits written in place (no string made for it).
    mutating func int(_ value: Int) {
        if value < 0 { append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var length = 1
        var rest = magnitude / 10
        while rest > 0 {
            length += 1
            rest /= 10
        }
        buffer.append(length: length) { digits in
            var position = length
            repeat {
                position -= 1
                digits[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
        }
    }

    mutating func bool(_ value: Bool) { value ? raw("true") : raw("false") }

    /// A finite number (non-finite ones are written as null).
    mutating func double(_ value: Double) {
        guard value.isFinite else { return raw("null") }
        if value.rounded() == value, abs(value) < 1e15 {
            int(Int(value))
        } else {
            var text = value.description
            text.withUTF8 { append($0) }
        }
    }

    /// A string with `"`, `\` and control characters escaped; everything else as UTF-8. The
    /// runs between escapes are copied whole.
    mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { string(utf8: $0) }
    }

    /// A string from its UTF-8 bytes (valid UTF-8, as a Swift string's are), escaped as
    /// ``string(_:)`` escapes.
    mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
        buffer.appendJSONString(utf8: utf8)
    }

    /// A string from UTF-8 known to be ``PlainBytes``: copied between its quotes unchecked.
    @inline(__always) mutating func plainString(utf8: UnsafeBufferPointer<UInt8>) {
        buffer.reserve(utf8.count + 2)
        buffer.append(UInt8(ascii: "\""))
        buffer.append(utf8)
        buffer.append(UInt8(ascii: "\""))
    }

    /// One string written from several pieces of UTF-8, each ending at a character's end (the
    /// lines of an export).
    mutating func string(pieces: [[UInt8]]) {
        reserve(pieces.reduce(2) { $0 + $1.count })
        append(UInt8(ascii: "\""))
        for piece in pieces { piece.withUnsafeBufferPointer { buffer.appendJSONStringContents(utf8: $0) } }
        append(UInt8(ascii: "\""))
    }

    mutating func strings(_ texts: [String]) {
        append(UInt8(ascii: "["))
        for (index, text) in texts.enumerated() {
            if index > 0 { comma() }
            string(text)
        }
        append(UInt8(ascii: "]"))
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
            append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { comma() }
                self.value(element)
            }
            append(UInt8(ascii: "]"))
        case .object(let members):
            object(sortedKeys: members) { $0.value($1) }
        }
    }

    mutating func requestID(_ id: RequestID) {
        switch id {
        case .integer(let number): int(Int(number))
        case .number(let number): double(number)
        case .exact(let text):
            // Only ever a number token as the envelope scanner found it.
            var text = text
            text.withUTF8 { append($0) }
        case .string(let text): string(text)
        case .null: raw("null")
        }
    }
}

/// A reply result that writes its own JSON (keys sorted), bypassing `JSONEncoder`.
protocol DirectJSON: Sendable {
    func write(to writer: inout JSONWriter)
    /// About how many bytes ``write(to:)`` writes, so the buffer is allocated once: small by
    /// default (an allocator serves small blocks fastest), more for a large reply.
    var expectedBytes: Int { get }
}

extension DirectJSON {
    var expectedBytes: Int { 512 }
}

/// `ping` is the cheapest request there is; its reply should cost no more.
extension PingRequest.Response: DirectJSON {
    func write(to writer: inout JSONWriter) {
        writer.raw(#"{"pong":"#)
        writer.bool(pong)
        writer.raw("}")
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
        if let replaced {
            writer.member("replaced", each: replaced) { writer, row in
                writer.beginObject()
                writer.member("id")
                writer.value(row.id)
                writer.member("index", row.index)
                writer.endObject()
            }
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
        writer.member("mode", mode.rawValue)
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

/// `distinct`'s reply, which may list a hundred thousand values.
extension DistinctRequest.Response: DirectJSON {
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("column", column)
        writer.member("distinct", distinct)
        writer.member("rows", rows)
        writer.member("table", table)
        writer.member("values", each: values) { writer, entry in
            writer.beginObject()
            writer.member("count", entry.count)
            writer.member("text", entry.text)
            writer.member("value")
            writer.value(entry.value)
            writer.endObject()
        }
        writer.member("version", version)
        writer.endObject()
    }

    var expectedBytes: Int { 128 + values.reduce(0) { $0 + 48 + 2 * $1.text.utf8.count } }
}
