/// The values of a number column's slots (``ColumnStore/numbers``), in the fewest bytes that
/// give each one back exactly: whole numbers within ±32,767 in two bytes, within ±2³¹ in four,
/// any other number (a fraction, −0, a large or huge value) as a double. An empty slot is NaN
/// as a double and the type's minimum as an integer. A quantity column of a million rows keeps
/// 2 MB, not 8, and a scan of it reads a quarter of the memory.
///
/// Read and written as doubles. A value the width held cannot give back makes the array wider
/// first, copying every value once: at most twice in a column's life. Loops over many slots
/// read ``storage`` and run at the width held (``StoredNumber``).
struct NumberArray: Sendable, RandomAccessCollection, MutableCollection {
    /// How the values are held.
    enum Width: Int, Sendable, Comparable {
        case int16 = 2
        case int32 = 4
        case double = 8

        /// The narrowest width that gives `value` back exactly.
        init(holding value: Double) {
            if value.isNaN {
                self = .int16
            } else if value == value.rounded(.towardZero), value.sign == .plus || value != 0 {
                self =
                    value > Double(Int16.min) && value <= Double(Int16.max)
                    ? .int16 : value > Double(Int32.min) && value <= Double(Int32.max) ? .int32 : .double
            } else {
                self = .double
            }
        }

        static func < (lhs: Width, rhs: Width) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The values as held, for a loop to run at their width.
    enum Storage {
        case int16([Int16])
        case int32([Int32])
        case double([Double])
    }

    /// The width held; only that width's array is used, the others stay empty.
    private(set) var width = Width.int16
    private var int16s: [Int16] = []
    private var int32s: [Int32] = []
    private var doubles: [Double] = []

    /// No values.
    init() {}

    /// `values`, in the narrowest width that gives each back.
    init(_ values: [Double]) {
        let wanted = values.withUnsafeBufferPointer { values in
            var wanted = Width.int16
            for value in values {
                let width = Width(holding: value)
                if width > wanted {
                    wanted = width
                    if wanted == .double { break }
                }
            }
            return wanted
        }
        width = wanted
        switch wanted {
        case .int16: int16s = values.map(Int16.init(stored:))
        case .int32: int32s = values.map(Int32.init(stored:))
        case .double: doubles = values
        }
    }

    /// `count` empty values.
    init(emptyCount count: Int) {
        int16s = Array(repeating: .min, count: count)
    }

    /// The values as held.
    var storage: Storage {
        switch width {
        case .int16: .int16(int16s)
        case .int32: .int32(int32s)
        case .double: .double(doubles)
        }
    }

    var startIndex: Int { 0 }

    var endIndex: Int {
        switch width {
        case .int16: int16s.count
        case .int32: int32s.count
        case .double: doubles.count
        }
    }

    subscript(position: Int) -> Double {
        get {
            switch width {
            case .int16: int16s[position].storedNumber
            case .int32: int32s[position].storedNumber
            case .double: doubles[position]
            }
        }
        set {
            let wanted = Width(holding: newValue)
            if wanted > width { widen(to: wanted) }
            switch width {
            case .int16: int16s[position] = Int16(stored: newValue)
            case .int32: int32s[position] = Int32(stored: newValue)
            case .double: doubles[position] = newValue
            }
        }
    }

    /// The values at `positions`, in their order: one loop of loads alone per width, so that
    /// the cache misses of positions scattered in memory overlap instead of waiting for each
    /// other.
    func values(at positions: [UInt32]) -> [Double] {
        switch width {
        case .int16: positions.map { int16s[Int($0)].storedNumber }
        case .int32: positions.map { int32s[Int($0)].storedNumber }
        case .double: positions.map { doubles[Int($0)] }
        }
    }

    /// How many values the array holds before it grows (and copies every value it holds).
    var capacity: Int {
        switch width {
        case .int16: int16s.capacity
        case .int32: int32s.capacity
        case .double: doubles.capacity
        }
    }

    /// Bytes the values take.
    var bytes: Int { count * width.rawValue }

    /// Makes room for `capacity` values without growing again.
    mutating func reserveCapacity(_ capacity: Int) {
        switch width {
        case .int16: int16s.reserveCapacity(capacity)
        case .int32: int32s.reserveCapacity(capacity)
        case .double: doubles.reserveCapacity(capacity)
        }
    }

    /// Widens the array (if it must) to `wanted`, keeping its capacity.
    mutating func widen(to wanted: Width) {
        guard wanted > width else { return }
        let held = Array(self)
        let room = capacity
        int16s = []
        int32s = []
        doubles = []
        width = wanted
        reserveCapacity(room)
        switch wanted {
        case .int16: break
        case .int32: int32s.append(contentsOf: held.lazy.map(Int32.init(stored:)))
        case .double: doubles.append(contentsOf: held)
        }
    }

    /// Adds `value` at the end.
    mutating func append(_ value: Double) {
        let wanted = Width(holding: value)
        if wanted > width { widen(to: wanted) }
        switch width {
        case .int16: int16s.append(Int16(stored: value))
        case .int32: int32s.append(Int32(stored: value))
        case .double: doubles.append(value)
        }
    }

    /// Adds every value of `other` at the end, widening to its width if it is wider.
    mutating func append(contentsOf other: NumberArray) {
        if other.width > width { widen(to: other.width) }
        switch (width, other.storage) {
        case (.int16, .int16(let values)): int16s += values
        case (.int32, .int16(let values)): int32s.append(contentsOf: values.lazy.map { Int32(stored: $0.storedNumber) })
        case (.int32, .int32(let values)): int32s += values
        case (.double, .double(let values)): doubles += values
        case (.double, _): doubles.append(contentsOf: other)
        default: preconditionFailure("a wider array was not widened to")
        }
    }

    /// Removes the values from `count` on.
    mutating func removeValues(from count: Int) {
        switch width {
        case .int16: int16s.removeSubrange(count...)
        case .int32: int32s.removeSubrange(count...)
        case .double: doubles.removeSubrange(count...)
        }
    }

    /// Calls `body` with the values as doubles to write in place: an array held narrower is made
    /// doubles first (a load writes what it parses so, then ``narrow()`` keeps it as it can).
    mutating func withDoubles<Result>(_ body: (UnsafeMutableBufferPointer<Double>) throws -> Result) rethrows
        -> Result
    {
        widen(to: .double)
        return try doubles.withUnsafeMutableBufferPointer { try body($0) }
    }

    /// The first `count` values as doubles (NaN past the end).
    func doubles(count: Int) -> [Double] {
        func converted<Number: StoredNumber>(_ numbers: [Number]) -> [Double] {
            [Double](unsafeUninitializedCapacity: count) { doubles, initialized in
                numbers.withUnsafeBufferPointer { numbers in
                    let copied = Swift.min(count, numbers.count)
                    for index in 0..<copied { doubles[index] = numbers[index].storedNumber }
                    if copied < count {
                        (doubles.baseAddress! + copied).initialize(repeating: .nan, count: count - copied)
                    }
                }
                initialized = count
            }
        }
        return switch storage {
        case .int16(let numbers): converted(numbers)
        case .int32(let numbers): converted(numbers)
        case .double(let numbers): converted(numbers)
        }
    }

    /// Keeps the values in the narrowest width that gives each back (one read of them all).
    mutating func narrow() {
        switch width {
        case .int16: return
        case .int32:
            guard int32s.allSatisfy({ $0 == .min || Width(holding: Double($0)) == .int16 }) else { return }
            self = NumberArray(Array(self))
        case .double:
            let narrowed = NumberArray(doubles)
            if narrowed.width < .double { self = narrowed }
        }
    }
}

/// A number as a ``NumberArray`` holds it: a double, or a whole number in an integer (its
/// minimum for empty).
protocol StoredNumber: Sendable {
    /// The value as a double; NaN for empty.
    var storedNumber: Double { get }
}

extension Double: StoredNumber {
    var storedNumber: Double { self }
}

extension Int16: StoredNumber {
    var storedNumber: Double { self == .min ? .nan : Double(self) }

    /// `value` (NaN for empty; a whole number in range) as held.
    init(stored value: Double) { self = value.isNaN ? .min : Int16(value) }
}

extension Int32: StoredNumber {
    var storedNumber: Double { self == .min ? .nan : Double(self) }

    /// `value` (NaN for empty; a whole number in range) as held.
    init(stored value: Double) { self = value.isNaN ? .min : Int32(value) }
}
