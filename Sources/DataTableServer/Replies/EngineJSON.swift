import DataTableEngine

/// Pieces of replies written straight from the engine's values, shared by ``ScrollReply`` and
/// ``GetReply``.
extension JSONWriter {
    /// A row id as the wire has it: a whole number or a string.
    mutating func rowID(_ id: RowID) {
        switch id {
        case .number(let number): int(Int(number))
        case .text(let text): string(text)
        }
    }

    /// `,"drafts":{"key":{"error":…,"text":…},…}` for `entries` already in key order; nothing
    /// when there are none.
    mutating func draftsMember<Entries: Collection>(
        _ entries: Entries,
        key: (Entries.Element) -> String,
        draft: (Entries.Element) -> Draft
    ) {
        guard !entries.isEmpty else { return }
        raw(#","drafts":{"#)
        for (index, entry) in entries.enumerated() {
            if index > 0 { comma() }
            string(key(entry))
            let draft = draft(entry)
            raw(#":{"error":"#)
            string(draft.message)
            raw(#","text":"#)
            string(draft.text)
            raw("}")
        }
        raw("}")
    }

    /// `,"name":["key",…]`; nothing when `entries` is empty.
    mutating func keysMember<Entries: Collection>(
        _ name: StaticString,
        _ entries: Entries,
        key: (Entries.Element) -> String
    ) {
        guard !entries.isEmpty else { return }
        comma()
        self.key(name)
        raw("[")
        for (index, entry) in entries.enumerated() {
            if index > 0 { comma() }
            string(key(entry))
        }
        raw("]")
    }
}
