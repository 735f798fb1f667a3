/// The codes of a coded text column's slots (``ColumnStore/codes``), each in the fewest bytes
/// the column's dictionary needs: one byte while every code is below 2⁸, two below 2¹⁶, four
/// beyond. A column of a few hundred different texts (a grade, a rack) keeps a quarter of the
/// bytes 32-bit codes would, and a scan of it reads a quarter of the memory.
///
/// Read and written as 32-bit codes. A code too large for the width held makes the array wider
/// first, copying every code once: at most twice in a column's life (an add makes that room
/// before, off the event loop: ``Table/hasRoom(forAdding:at:)``). Loops over many slots read
/// ``storage`` and run at the width held.
struct CodeArray: Sendable, RandomAccessCollection, MutableCollection {
    /// The number of bytes each code takes.
    enum Width: Int, Sendable, Comparable {
        case one = 1
        case two = 2
        case four = 4

        /// The narrowest width that holds `code`.
        init(holding code: UInt32) {
            self = code <= UInt8.max ? .one : code <= UInt16.max ? .two : .four
        }

        /// The largest code this width holds.
        var largest: UInt32 {
            switch self {
            case .one: UInt32(UInt8.max)
            case .two: UInt32(UInt16.max)
            case .four: UInt32.max
            }
        }

        static func < (lhs: Width, rhs: Width) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The codes as held, for a loop to run at their width.
    enum Storage {
        case one([UInt8])
        case two([UInt16])
        case four([UInt32])
    }

    /// The width held; only that width's array is used, the others stay empty.
    private(set) var width = Width.one
    private var ones: [UInt8] = []
    private var twos: [UInt16] = []
    private var fours: [UInt32] = []

    /// No codes, one byte each.
    init() {}

    /// `codes`, in the narrowest width that holds `largest` (at least their largest code).
    init(_ codes: [UInt32], largest: UInt32) {
        width = Width(holding: largest)
        switch width {
        case .one: ones = codes.map { UInt8(truncatingIfNeeded: $0) }
        case .two: twos = codes.map { UInt16(truncatingIfNeeded: $0) }
        case .four: fours = codes
        }
    }

    /// `count` codes of 0, in the narrowest width that holds `largest`.
    init(zeros count: Int, largest: UInt32) {
        width = Width(holding: largest)
        switch width {
        case .one: ones = Array(repeating: 0, count: count)
        case .two: twos = Array(repeating: 0, count: count)
        case .four: fours = Array(repeating: 0, count: count)
        }
    }

    /// The codes as held.
    var storage: Storage {
        switch width {
        case .one: .one(ones)
        case .two: .two(twos)
        case .four: .four(fours)
        }
    }

    var startIndex: Int { 0 }

    var endIndex: Int {
        switch width {
        case .one: ones.count
        case .two: twos.count
        case .four: fours.count
        }
    }

    subscript(position: Int) -> UInt32 {
        get {
            switch width {
            case .one: UInt32(ones[position])
            case .two: UInt32(twos[position])
            case .four: fours[position]
            }
        }
        set {
            if newValue > width.largest { widen(toHold: newValue) }
            switch width {
            case .one: ones[position] = UInt8(truncatingIfNeeded: newValue)
            case .two: twos[position] = UInt16(truncatingIfNeeded: newValue)
            case .four: fours[position] = newValue
            }
        }
    }

    /// The codes at `positions`, in their order: one loop of loads alone per width, so that the
    /// cache misses of positions scattered in memory overlap instead of waiting for each other.
    func values(at positions: [UInt32]) -> [UInt32] {
        switch width {
        case .one: positions.map { UInt32(ones[Int($0)]) }
        case .two: positions.map { UInt32(twos[Int($0)]) }
        case .four: positions.map { fours[Int($0)] }
        }
    }

    /// How many codes the array holds before it grows (and copies every code it holds).
    var capacity: Int {
        switch width {
        case .one: ones.capacity
        case .two: twos.capacity
        case .four: fours.capacity
        }
    }

    /// Bytes the codes take.
    var bytes: Int { count * width.rawValue }

    /// Whether `code` can be written with no O(n) work (the width holds it).
    func hasRoom(forCode code: UInt32) -> Bool { code <= width.largest }

    /// Makes room for `capacity` codes without growing again.
    mutating func reserveCapacity(_ capacity: Int) {
        switch width {
        case .one: ones.reserveCapacity(capacity)
        case .two: twos.reserveCapacity(capacity)
        case .four: fours.reserveCapacity(capacity)
        }
    }

    /// Widens the array (if it must) so that it holds `code`, keeping its capacity.
    mutating func widen(toHold code: UInt32) {
        let wanted = Width(holding: code)
        guard wanted > width else { return }
        let held = Array(self)
        let room = capacity
        ones = []
        twos = []
        fours = []
        width = wanted
        reserveCapacity(room)
        switch wanted {
        case .one: break
        case .two: twos.append(contentsOf: held.lazy.map { UInt16(truncatingIfNeeded: $0) })
        case .four: fours.append(contentsOf: held)
        }
    }

    /// Adds `code` at the end.
    mutating func append(_ code: UInt32) {
        if code > width.largest { widen(toHold: code) }
        switch width {
        case .one: ones.append(UInt8(truncatingIfNeeded: code))
        case .two: twos.append(UInt16(truncatingIfNeeded: code))
        case .four: fours.append(code)
        }
    }

    /// Adds `codes` at the end, none of them above `largest`.
    mutating func append(contentsOf codes: some Collection<UInt32>, largest: UInt32) {
        if largest > width.largest { widen(toHold: largest) }
        switch width {
        case .one: ones.append(contentsOf: codes.lazy.map { UInt8(truncatingIfNeeded: $0) })
        case .two: twos.append(contentsOf: codes.lazy.map { UInt16(truncatingIfNeeded: $0) })
        case .four: fours.append(contentsOf: codes)
        }
    }

    /// Removes the codes from `count` on.
    mutating func removeCodes(from count: Int) {
        switch width {
        case .one: ones.removeSubrange(count...)
        case .two: twos.removeSubrange(count...)
        case .four: fours.removeSubrange(count...)
        }
    }
}
