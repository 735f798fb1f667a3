import MemberwiseInit

/// What changed in a watched window (`watch`), as the `window` notification's params: keyed by
/// row id, every change since the last delta merged (the newest wins; a row that came and went
/// in between is not there).
///
/// A client applies it to the window it holds (``apply(to:)``, and protocol.md's "watch"), in
/// this order:
/// 1. each member of `set` replaces the window's member of that name (`null` removes it);
/// 2. the rows whose `id` is in `removed` leave;
/// 3. each entry of `changed` updates the row of its `id`: each member replaces the row's,
///    `null` removes it, except `cells` or `values` given as an object, which replaces only the
///    cells (or values) of the columns it names (by key, at that column's place in the
///    window's `columns`);
/// 4. the rows in `added` join, and the rows are put in order of their `index`;
/// 5. `sections` changes the window's sections as the steps above change rows: its `set`, then
///    the section headers of `shown` by `title`, or by `path` with nested groups (removed,
///    changed, added), put in order of `y` (then `level`).
@MemberwiseInit
public struct WindowDelta: Codable, Hashable, Sendable {
    /// The watch it belongs to.
    public var watch: Int
    /// 1 for the first delta of a watch, then one more each time; a gap never happens (a client
    /// that sees one has missed a notification).
    public var seq: Int
    /// The table's version the window is at.
    public var version: Int
    /// Members of the window, other than `rows`, whose values changed: the new value, whole.
    public var set: [String: JSONValue]?
    /// Ids of rows that left the window.
    public var removed: [JSONValue]?
    /// Rows that entered the window, whole.
    public var added: [JSONValue]?
    /// Rows that stayed, each with its `id` and the members that changed.
    public var changed: [JSONValue]?
    /// While frozen: how many changes outside the window's rows (rows added, removed or moved)
    /// wait to be shown when the watch is no longer frozen.
    public var pending: Int?
    /// What changed in the window's sections, header by header, when it had sections and still
    /// has them (otherwise `set.sections` says it whole).
    public var sections: SectionsDelta?

    /// Whether it carries no change to the window (nor a new `pending`).
    public var isEmpty: Bool {
        self.set == nil && removed == nil && added == nil && changed == nil && pending == nil && sections == nil
    }

    /// What changed in a window's `sections`: its members other than `shown` whole, and the
    /// section headers it shows keyed as rows are by `id` (a new total is a change of the
    /// header's `aggregates`, not a new `sections`): by `title`, or by `path` with nested groups
    /// (two groups may share a title, never a path).
    @MemberwiseInit
    public struct SectionsDelta: Codable, Hashable, Sendable {
        /// Members other than `shown` whose values changed (`count`, `grandTotal`, `index` …),
        /// whole; `null` removes a member.
        public var set: [String: JSONValue]?
        /// Keys of the headers that left: each its `title`, or its `path` with nested groups.
        public var removed: [JSONValue]?
        /// Headers that came, whole.
        public var added: [JSONValue]?
        /// Headers that stayed: `title` (and `path`, with nested groups) and each member that
        /// changed (`y`, `count`, `aggregates`, `sticky`, `collapsed` …); `null` removes a member.
        public var changed: [JSONValue]?

        /// What a header is known by: its `path` (nested groups), else its `title`.
        static func key(_ header: JSONValue) -> JSONValue? {
            header["path"] ?? header["title"]
        }

        /// The changes that take `old` sections to `new`; `nil` when headers cannot be told
        /// apart (two share a key) or either is not sections.
        static func between(_ old: JSONValue, _ new: JSONValue) -> SectionsDelta? {
            guard case .object(let before) = old, case .object(let after) = new,
                let oldShown = before["shown"]?.arrayElements, let newShown = after["shown"]?.arrayElements
            else { return nil }
            func byKey(_ headers: [JSONValue]) -> [JSONValue: [String: JSONValue]]? {
                var keyed: [JSONValue: [String: JSONValue]] = [:]
                for header in headers {
                    guard let key = key(header), case .object(let members) = header,
                        keyed.updateValue(members, forKey: key) == nil
                    else { return nil }
                }
                return keyed
            }
            guard let oldHeaders = byKey(oldShown), let newHeaders = byKey(newShown) else { return nil }
            var delta = SectionsDelta()
            var set: [String: JSONValue] = [:]
            for key in Set(before.keys).union(after.keys) where key != "shown" && before[key] != after[key] {
                set[key] = after[key] ?? .null
            }
            var added: [JSONValue] = []
            var changed: [JSONValue] = []
            for header in newShown {
                let key = key(header)!
                guard let was = oldHeaders[key] else {
                    added.append(header)
                    continue
                }
                let members = newHeaders[key]!
                var change: [String: JSONValue] = [:]
                for member in Set(was.keys).union(members.keys) where was[member] != members[member] {
                    change[member] = members[member] ?? .null
                }
                if !change.isEmpty {
                    change["title"] = members["title"]
                    if let path = members["path"] { change["path"] = path }
                    changed.append(.object(change))
                }
            }
            let removed = oldShown.compactMap(key).filter { newHeaders[$0] == nil }
            delta.set = set.isEmpty ? nil : set
            delta.removed = removed.isEmpty ? nil : removed
            delta.added = added.isEmpty ? nil : added
            delta.changed = changed.isEmpty ? nil : changed
            return delta
        }

        /// Applies the changes to `sections` (a window's `sections` object).
        func apply(to sections: inout JSONValue) {
            guard case .object(var members) = sections else { return }
            for (key, value) in set ?? [:] {
                if value == .null { members.removeValue(forKey: key) } else { members[key] = value }
            }
            var shown = members["shown"]?.arrayElements ?? []
            let gone = Set(removed ?? [])
            shown.removeAll { Self.key($0).map(gone.contains) ?? false }
            for change in changed ?? [] {
                guard case .object(let update) = change, let key = Self.key(change),
                    let index = shown.firstIndex(where: { Self.key($0) == key }),
                    case .object(var header) = shown[index]
                else { continue }
                for (member, value) in update where member != "title" && member != "path" {
                    if value == .null { header.removeValue(forKey: member) } else { header[member] = value }
                }
                shown[index] = .object(header)
            }
            shown += added ?? []
            // By place, then level (a nested header pushed up under its parent's shares its y).
            shown.sort {
                ($0["y"]?.intValue ?? 0, $0["level"]?.intValue ?? 0) < (
                    $1["y"]?.intValue ?? 0, $1["level"]?.intValue ?? 0
                )
            }
            members["shown"] = .array(shown)
            sections = .object(members)
        }
    }

    /// `scroll`'s window as a watch keeps and sends it: without each row's `highlight` (it
    /// fades with the clock) and `lost` (told once, in `scroll` and `filter` replies), and
    /// without members that are null (a member that is null is one that is absent: a delta's
    /// null removes a member).
    public static func watched(_ window: JSONValue) -> JSONValue {
        guard case .object(var members) = window else { return window }
        members = members.filter { $0.value != .null }
        members.removeValue(forKey: "lost")
        if let rows = members["rows"]?.arrayElements {
            members["rows"] = .array(
                rows.map { row in
                    guard case .object(var row) = row else { return row }
                    row = row.filter { $0.value != .null }
                    row.removeValue(forKey: "highlight")
                    return .object(row)
                }
            )
        }
        return .object(members)
    }

    /// The changes that take the window `old` to the window `new` (both as `scroll` gives them):
    /// `watch`, `seq` and `version` are left for the caller.
    public static func between(_ old: JSONValue, _ new: JSONValue) -> WindowDelta {
        var delta = WindowDelta(watch: 0, seq: 0, version: 0)
        guard case .object(let before) = old, case .object(let after) = new else {
            delta.set = new.objectMembers
            return delta
        }
        var set: [String: JSONValue] = [:]
        for key in Set(before.keys).union(after.keys) where key != "rows" && before[key] != after[key] {
            // Sections that stay are changed header by header.
            if key == "sections", let old = before[key], let new = after[key],
                let sections = SectionsDelta.between(old, new)
            {
                delta.sections = sections
                continue
            }
            set[key] = after[key] ?? .null
        }
        let oldRows = (before["rows"]?.arrayElements ?? []).keyedByID()
        let newRows = after["rows"]?.arrayElements ?? []
        let keys = after["columns"]?.arrayElements?.compactMap { $0["key"]?.stringValue } ?? []
        let oldKeys = before["columns"]?.arrayElements?.compactMap { $0["key"]?.stringValue } ?? []
        var added: [JSONValue] = []
        var changed: [JSONValue] = []
        var stayed: Set<JSONValue> = []
        for row in newRows {
            guard let id = row["id"], case .object(let members) = row else { continue }
            guard case .object(let was)? = oldRows[id] else {
                added.append(row)
                continue
            }
            stayed.insert(id)
            var change: [String: JSONValue] = [:]
            for key in Set(was.keys).union(members.keys) where was[key] != members[key] {
                if key == "cells" || key == "values", keys == oldKeys, let cells = members[key]?.arrayElements,
                    let oldCells = was[key]?.arrayElements, cells.count == oldCells.count, cells.count == keys.count
                {
                    var patch: [String: JSONValue] = [:]
                    for (index, cell) in cells.enumerated() where cell != oldCells[index] { patch[keys[index]] = cell }
                    change[key] = .object(patch)
                } else {
                    change[key] = members[key] ?? .null
                }
            }
            if !change.isEmpty {
                change["id"] = id
                changed.append(.object(change))
            }
        }
        let removed = (before["rows"]?.arrayElements ?? []).compactMap { row -> JSONValue? in
            guard let id = row["id"], !stayed.contains(id) else { return nil }
            return id
        }
        delta.set = set.isEmpty ? nil : set
        delta.removed = removed.isEmpty ? nil : removed
        delta.added = added.isEmpty ? nil : added
        delta.changed = changed.isEmpty ? nil : changed
        return delta
    }

    /// Applies the delta to `window` (a window as `scroll` gives it), as a client does.
    public func apply(to window: inout JSONValue) {
        guard case .object(var members) = window else { return }
        // (JSONValue reads `nil` as its own null: remove members by name.)
        for (key, value) in set ?? [:] {
            if value == .null { members.removeValue(forKey: key) } else { members[key] = value }
        }
        var rows = members["rows"]?.arrayElements ?? []
        if let removed, !removed.isEmpty {
            let gone = Set(removed)
            rows.removeAll { $0["id"].map(gone.contains) ?? false }
        }
        if let changed {
            let keys = members["columns"]?.arrayElements?.compactMap { $0["key"]?.stringValue } ?? []
            var place: [JSONValue: Int] = [:]
            for (index, row) in rows.enumerated() { if let id = row["id"] { place[id] = index } }
            for change in changed {
                guard case .object(let update) = change, let id = update["id"], let index = place[id],
                    case .object(var row) = rows[index]
                else { continue }
                for (key, value) in update where key != "id" {
                    if key == "cells" || key == "values", case .object(let patch) = value,
                        var cells = row[key]?.arrayElements
                    {
                        for (column, cell) in patch {
                            if let at = keys.firstIndex(of: column), at < cells.count { cells[at] = cell }
                        }
                        row[key] = .array(cells)
                    } else if value == .null {
                        row.removeValue(forKey: key)
                    } else {
                        row[key] = value
                    }
                }
                rows[index] = .object(row)
            }
        }
        rows += added ?? []
        rows.sort { ($0["index"]?.intValue ?? 0) < ($1["index"]?.intValue ?? 0) }
        members["rows"] = .array(rows)
        if let sections, var held = members["sections"] {
            sections.apply(to: &held)
            members["sections"] = held
        }
        window = .object(members)
    }
}

extension JSONValue {
    /// The elements when this is an array, else `nil`.
    public var arrayElements: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The members when this is an object, else `nil`.
    public var objectMembers: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }
}

extension [JSONValue] {
    /// Rows by their `id`.
    fileprivate func keyedByID() -> [JSONValue: JSONValue] {
        var rows: [JSONValue: JSONValue] = [:]
        for row in self { if let id = row["id"] { rows[id] = row } }
        return rows
    }
}
