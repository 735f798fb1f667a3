/// One column's values, indexed by row slot, in the narrowest array its type allows.
///
/// Text and image values are Swift strings (short ones stored inline); numbers are whole
/// numbers in two or four bytes while every value is one, else doubles, NaN for empty
/// (``NumberArray``); dates, times and picker choices are 32-bit integers and durations 64-bit
/// ones, with the type's minimum for empty. No cell is boxed.
///
/// A text column whose values repeat (a load makes it so) is *coded*: each different text is
/// kept once in ``dictionary`` and a slot holds its code, in one, two or four bytes
/// (``CodeArray``). Grouping, counting and filtering then work on the codes and look at each
/// different text once.
struct ColumnStore: Sendable {
    let type: ColumnType
    // Only the array of the store's type is used; the others stay empty. A coded text store
    // uses `codes` and `dictionary`, not `strings`.
    var strings: [String] = []
    /// Each slot's code into ``dictionary`` (coded text stores only).
    private(set) var codes = CodeArray()
    /// The texts of a coded text store (empty for every other store).
    private(set) var dictionary = TextDictionary()
    /// Whether the store is a coded text store.
    private(set) var isCoded = false
    var numbers = NumberArray()
    var smallIntegers: [Int32] = []
    var largeIntegers: [Int64] = []
    /// Bytes the strings keep outside the array (a string of more than 15 bytes has a buffer of
    /// its own), kept current by every change, for ``estimatedBytes``.
    var textHeapBytes = 0

    init(type: ColumnType) { self.type = type }

    /// A coded text store: slot `i` holds `dictionary`'s text with code `codes[i]`.
    init(codes: [UInt32], dictionary: TextDictionary) {
        self.init(codes: CodeArray(codes, largest: dictionary.largestCode), dictionary: dictionary)
    }

    /// A coded text store: slot `i` holds `dictionary`'s text with code `codes[i]`.
    init(codes: CodeArray, dictionary: TextDictionary) {
        type = .text
        self.codes = codes
        self.dictionary = dictionary
        isCoded = true
    }

    /// A plain store of `type` (text or image) holding `strings`.
    init(type: ColumnType, strings: [String]) {
        self.type = type
        self.strings = strings
        textHeapBytes = strings.reduce(0) { $0 + Self.heapBytes(of: $1) }
    }

    /// The same values as a coded store (a text store; any other is returned as it is): when
    /// its texts repeat (at most one different text for every two slots), or `always`.
    func coded(always: Bool = false) -> ColumnStore {
        guard type == .text, !isCoded else { return self }
        var interner = TextInterner()
        let codes = strings.map { interner.code(of: $0) }
        return interner.store(codes: codes, coded: always)!
    }

    /// The same values as a plain store of strings.
    func uncoded() -> ColumnStore {
        guard isCoded else { return self }
        let texts = dictionary.allTexts
        return ColumnStore(type: type, strings: codes.map { texts[Int($0)] })
    }

    /// The bytes `text` keeps outside its array slot: none when it is stored inline.
    static func heapBytes(of text: String) -> Int {
        let count = text.utf8.count
        return count > 15 ? count + 32 : 0
    }

    /// Roughly the memory the store holds.
    var estimatedBytes: Int {
        if isCoded { return codes.bytes + dictionary.estimatedBytes }
        return switch type {
        case .text, .image: strings.count * 16 + textHeapBytes
        case .number: numbers.bytes
        case .date, .time, .picker, .boolean: smallIntegers.count * 4
        case .duration, .datetime: largeIntegers.count * 8
        }
    }

    /// How many slots the store has room for.
    var count: Int {
        if isCoded { return codes.count }
        return switch type {
        case .text, .image: strings.count
        case .number: numbers.count
        case .date, .time, .picker, .boolean: smallIntegers.count
        case .duration, .datetime: largeIntegers.count
        }
    }

    /// The stored bits of a number, date, time, picker, duration, boolean or datetime slot
    /// (equal bits, equal values); `nil` when the slot is empty. Not for text or image stores.
    func bits(at slot: UInt32) -> UInt64? {
        let index = Int(slot)
        switch type {
        case .number:
            let number = numbers[index]
            return number.isNaN ? nil : number.bitPattern
        case .date, .time, .picker, .boolean:
            let value = smallIntegers[index]
            return value == .min ? nil : UInt64(UInt32(bitPattern: value))
        case .duration, .datetime:
            let value = largeIntegers[index]
            return value == .min ? nil : UInt64(bitPattern: value)
        case .text, .image:
            preconditionFailure("a \(type) store has no bits")
        }
    }

    /// The values in `slots`, in their order, the store borrowed once (read as
    /// `stores[column][slot]` in a loop, the store is copied, each of its arrays retained and
    /// released, at every cell). The stored cells are read first in a loop of loads alone
    /// (``CodeArray/values(at:)``, ``NumberArray/values(at:)``): the slots of a sorted window
    /// lie far apart, and a loop that also makes each value waits for one cache miss after
    /// another.
    func values(at slots: [UInt32]) -> [CellValue] {
        if isCoded {
            return dictionary.texts(of: codes.values(at: slots)).map { $0.isEmpty ? .empty : .text($0) }
        }
        switch type {
        case .number:
            return numbers.values(at: slots).map { $0.isNaN ? .empty : .number($0) }
        case .date, .time, .picker, .boolean:
            return slots.map { smallIntegers[Int($0)] }.map(value(ofSmallInteger:))
        case .duration, .datetime:
            return slots.map { largeIntegers[Int($0)] }.map(value(ofLargeInteger:))
        case .text, .image:
            break
        }
        var values: [CellValue] = []
        values.reserveCapacity(slots.count)
        for slot in slots { values.append(self[slot]) }
        return values
    }

    /// Whether the value in `slot`, as a row id (``Table/rowID(forKey:)``, an empty text when
    /// it is none), is `id`; a text or a number compared where it is stored.
    func holds(_ id: RowID, at slot: UInt32) -> Bool {
        switch (id, type) {
        case (.text(let text), .text) where !text.isEmpty:
            return (isCoded ? dictionary.text(of: Int(codes[Int(slot)])) : strings[Int(slot)]) == text
        case (.number(let number), .number):
            let stored = numbers[Int(slot)]
            return !stored.isNaN && Int64(stored) == number
        default:
            return (Table.rowID(forKey: self[slot]) ?? .text("")) == id
        }
    }

    /// The value a date, time, picker or boolean store holds as `stored` (the type's minimum
    /// for empty).
    private func value(ofSmallInteger stored: Int32) -> CellValue {
        guard stored != .min else { return .empty }
        return switch type {
        case .date: .date(days: stored)
        case .time: .time(seconds: stored)
        case .picker: .picker(option: stored)
        default: .boolean(stored != 0)
        }
    }

    /// The value a duration or datetime store holds as `stored` (the type's minimum for empty).
    private func value(ofLargeInteger stored: Int64) -> CellValue {
        guard stored != .min else { return .empty }
        return type == .duration ? .duration(seconds: stored) : .datetime(milliseconds: stored)
    }

    subscript(slot: UInt32) -> CellValue {
        @inline(__always) get {
            let index = Int(slot)
            switch type {
            case .text:
                let text = isCoded ? dictionary.text(of: Int(codes[index])) : strings[index]
                return text.isEmpty ? .empty : .text(text)
            case .image:
                let text = strings[index]
                return text.isEmpty ? .empty : .image(text)
            case .number:
                let number = numbers[index]
                return number.isNaN ? .empty : .number(number)
            case .date, .time, .picker, .boolean:
                return value(ofSmallInteger: smallIntegers[index])
            case .duration, .datetime:
                return value(ofLargeInteger: largeIntegers[index])
            }
        }
        set {
            let index = Int(slot)
            if isCoded {
                let text = if case .text(let text) = newValue { text } else { "" }
                let code = dictionary.use(text)
                dictionary.release(codes[index])
                codes[index] = code
                return
            }
            switch (type, newValue) {
            case (.text, .text(let text)), (.image, .image(let text)):
                textHeapBytes += Self.heapBytes(of: text) - Self.heapBytes(of: strings[index])
                strings[index] = text
            case (.text, _), (.image, _):
                textHeapBytes -= Self.heapBytes(of: strings[index])
                strings[index] = ""
            case (.number, .number(let number)): numbers[index] = number
            case (.number, _): numbers[index] = .nan
            case (.date, .date(let value)), (.time, .time(let value)), (.picker, .picker(let value)):
                smallIntegers[index] = value
            case (.date, _), (.time, _), (.picker, _): smallIntegers[index] = .min
            case (.duration, .duration(let seconds)), (.datetime, .datetime(let seconds)):
                largeIntegers[index] = seconds
            case (.duration, _), (.datetime, _): largeIntegers[index] = .min
            case (.boolean, .boolean(let value)): smallIntegers[index] = value ? 1 : 0
            case (.boolean, _): smallIntegers[index] = .min
            }
        }
    }

    /// A store of `count` empty slots.
    init(type: ColumnType, emptySlots count: Int) {
        self.type = type
        switch type {
        case .text, .image: strings = Array(repeating: "", count: count)
        case .number: numbers = NumberArray(emptyCount: count)
        case .date, .time, .picker, .boolean: smallIntegers = Array(repeating: .min, count: count)
        case .duration, .datetime: largeIntegers = Array(repeating: .min, count: count)
        }
    }

    /// A store holding the values of `slots`, in that order: slot `i` of the new store is
    /// `slots[i]` of this one.
    func gathering(_ slots: [UInt32]) -> ColumnStore {
        if isCoded {
            let gathered = slots.map { codes[Int($0)] }
            // Fewer slots than texts (the rows a delete saves for its undo): a dictionary of
            // just their texts, in O(slots) rather than in the whole dictionary's size.
            if gathered.count < dictionary.codeCount {
                let (renumbered, compact) = dictionary.compacted(gathered)
                return ColumnStore(codes: renumbered, dictionary: compact)
            }
            return ColumnStore(codes: gathered, dictionary: dictionary.recounted(gathered))
        }
        var gathered = ColumnStore(type: type)
        switch type {
        case .text, .image:
            gathered.strings = slots.map { strings[Int($0)] }
            gathered.textHeapBytes = gathered.strings.reduce(0) { $0 + Self.heapBytes(of: $1) }
        case .number: gathered.numbers = NumberArray(slots.map { numbers[Int($0)] })
        case .date, .time, .picker, .boolean: gathered.smallIntegers = slots.map { smallIntegers[Int($0)] }
        case .duration, .datetime: gathered.largeIntegers = slots.map { largeIntegers[Int($0)] }
        }
        return gathered
    }

    /// Adds room for one more slot, empty.
    mutating func appendEmpty() {
        if isCoded { return codes.append(0) }
        switch type {
        case .text, .image: strings.append("")
        case .number: numbers.append(.nan)
        case .date, .time, .picker, .boolean: smallIntegers.append(.min)
        case .duration, .datetime: largeIntegers.append(.min)
        }
    }

    /// Appends every slot of `other`, a store of the same type. The result is coded when both
    /// are (or this one is empty and `other` is): `other`'s texts join this dictionary and its
    /// codes are rewritten to this one's.
    mutating func append(contentsOf other: ColumnStore) {
        precondition(other.type == type, "appending a \(other.type) store to a \(type) one")
        guard other.count > 0 else { return }
        if count == 0, other.isCoded {
            self = other
            return
        }
        switch (isCoded, other.isCoded) {
        case (true, true):
            let codeFor = dictionary.use(everyTextOf: other.dictionary)
            codes.append(contentsOf: other.codes.lazy.map { codeFor[Int($0)] }, largest: dictionary.largestCode)
            return
        case (true, false):
            self = uncoded()
        case (false, true):
            return append(contentsOf: other.uncoded())
        case (false, false): break
        }
        strings += other.strings
        textHeapBytes += other.textHeapBytes
        numbers.append(contentsOf: other.numbers)
        smallIntegers += other.smallIntegers
        largeIntegers += other.largeIntegers
    }

    /// Removes the slots from `count` on: undoes an ``append(contentsOf:)`` that cannot stand.
    mutating func removeSlots(from count: Int) {
        guard count < self.count else { return }
        if isCoded {
            for code in codes[count...] { dictionary.release(code) }
            return codes.removeCodes(from: count)
        }
        switch type {
        case .text, .image:
            for text in strings[count...] { textHeapBytes -= Self.heapBytes(of: text) }
            strings.removeSubrange(count...)
        case .number: numbers.removeValues(from: count)
        case .date, .time, .picker, .boolean: smallIntegers.removeSubrange(count...)
        case .duration, .datetime: largeIntegers.removeSubrange(count...)
        }
    }

    /// How many slots the store holds before its array grows (and copies every slot it holds).
    var capacity: Int {
        if isCoded { return codes.capacity }
        return switch type {
        case .text, .image: strings.capacity
        case .number: numbers.capacity
        case .date, .time, .picker, .boolean: smallIntegers.capacity
        case .duration, .datetime: largeIntegers.capacity
        }
    }

    /// Keeps a number store's values in the narrowest width that gives each back
    /// (``NumberArray/narrow()``): one read of them all.
    mutating func narrowNumbers() {
        if type == .number { numbers.narrow() }
    }

    /// Whether `count` more slots can each take a text the store lacks with no O(n) work: a
    /// coded store's codes are wide enough for the codes those texts would be given.
    func codesHaveRoom(forTexts count: Int) -> Bool {
        !isCoded || codes.hasRoom(forCode: dictionary.largestCode(adding: count))
    }

    /// Widens a coded store's codes (O(n)) so that ``codesHaveRoom(forTexts:)`` holds.
    mutating func makeCodeRoom(forTexts count: Int) {
        if isCoded { codes.widen(toHold: dictionary.largestCode(adding: count)) }
    }

    /// Makes room for `capacity` slots without growing again.
    mutating func reserve(_ capacity: Int) {
        if isCoded { return codes.reserveCapacity(capacity) }
        switch type {
        case .text, .image: strings.reserveCapacity(capacity)
        case .number: numbers.reserveCapacity(capacity)
        case .date, .time, .picker, .boolean: smallIntegers.reserveCapacity(capacity)
        case .duration, .datetime: largeIntegers.reserveCapacity(capacity)
        }
    }

    /// The raw text of a text or image slot ("" when empty), without building a ``CellValue``.
    func text(at slot: UInt32) -> String {
        if isCoded { return dictionary.text(of: Int(codes[Int(slot)])) }
        return strings[Int(slot)]
    }

    /// A 64-bit key that orders like the stored values, with 0 for empty; exact for every type
    /// but text and image, where it holds the first bytes of the case-folded text and ties must
    /// be settled by ``ValueOrder/compareText(_:_:)``.
    func orderKey(at slot: UInt32) -> UInt64 {
        let index = Int(slot)
        switch type {
        case .text, .image:
            return TextKey.prefix(text(at: slot))
        case .number:
            let number = numbers[index]
            if number.isNaN { return 0 }
            let bits = (number == 0 ? 0.0 : number).bitPattern
            let ordered = bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
            return max(ordered, 1)
        case .date, .time, .picker, .boolean:
            let value = smallIntegers[index]
            return value == .min ? 0 : UInt64(Int64(value) - Int64(Int32.min))
        case .duration, .datetime:
            let value = largeIntegers[index]
            return value == .min ? 0 : UInt64(bitPattern: value) ^ (1 << 63)
        }
    }

    /// Whether ``orderKey(at:)`` alone decides the order of two slots.
    var orderKeyIsExact: Bool { type != .text && type != .image }
}
