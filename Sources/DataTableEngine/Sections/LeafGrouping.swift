/// One level's values over a view's rows, numbered as first met: the different values, and each
/// row's number. A coded text column numbers its rows through an array indexed by code, with no
/// cell made and nothing hashed; a column whose order keys are exact (every type but text and
/// images) hashes its rows' 64-bit keys; other text hashes cells.
struct LevelValues {
    /// The different values, in the order first met.
    private(set) var values: [CellValue] = []
    /// Each row's value's number in ``values``, by position in the view.
    private(set) var rowCodes: [Int32]

    /// Views of at least this many rows have a coded column's values numbered on every core.
    static let rowsNumberedOnEveryCore = 1 << 17

    /// The values of `store` at `slots` (the view's rows, in its order).
    init(of store: ColumnStore, at slots: [UInt32]) {
        var rowCodes = [Int32](repeating: 0, count: slots.count)
        var values: [CellValue] = []
        if store.isCoded {
            let dictionary = store.dictionary
            let codeCount = dictionary.codeCount
            let count = slots.count
            let pieces = count >= Self.rowsNumberedOnEveryCore ? 2 : 1
            /// Numbers the rows through `codes`, the store's codes at the width it keeps them:
            /// each piece of the rows as first met in it, then the pieces' numbers made one.
            func number<Code: FixedWidthInteger & Sendable>(through codes: [Code]) {
                let metByPiece = rowCodes.withUnsafeMutableBufferPointer { rowCodes in
                    let target = UnsafeMutableSendableBuffer(rowCodes)
                    return ConcurrentPieces.map(pieces) { piece -> [Int] in
                        var numberOfCode = [Int32](repeating: -1, count: codeCount)
                        var met: [Int] = []
                        codes.withUnsafeBufferPointer { codes in
                            numberOfCode.withUnsafeMutableBufferPointer { numberOfCode in
                                for position in count * piece / pieces..<count * (piece + 1) / pieces {
                                    let code = Int(codes[Int(slots[position])])
                                    var number = numberOfCode[code]
                                    if number < 0 {
                                        number = Int32(met.count)
                                        numberOfCode[code] = number
                                        met.append(code)
                                    }
                                    target.buffer[position] = number
                                }
                            }
                        }
                        return met
                    }
                }
                // The first piece's numbers stand; a later piece's are renumbered where its
                // values were met before (the order first met over all the rows, as one pass).
                var numberOfCode = [Int32](repeating: -1, count: codeCount)
                var renumbered: [[Int32]] = []
                for met in metByPiece {
                    renumbered.append(
                        met.map { code in
                            if numberOfCode[code] < 0 {
                                numberOfCode[code] = Int32(values.count)
                                let text = dictionary.text(of: code)
                                values.append(text.isEmpty ? .empty : .text(text))
                            }
                            return numberOfCode[code]
                        }
                    )
                }
                let numbersByPiece = renumbered
                let moved = renumbered.map { numbers in numbers.enumerated().contains { $0.offset != Int($0.element) } }
                rowCodes.withUnsafeMutableBufferPointer { rowCodes in
                    let target = UnsafeMutableSendableBuffer(rowCodes)
                    _ = ConcurrentPieces.map(pieces) { piece in
                        guard moved[piece] else { return }
                        let numbers = numbersByPiece[piece]
                        for position in count * piece / pieces..<count * (piece + 1) / pieces {
                            target.buffer[position] = numbers[Int(target.buffer[position])]
                        }
                    }
                }
            }
            // The rows are read in the view's order, at random among the slots: codes of one or
            // two bytes, as the store keeps them, keep what is read in a cache four or two
            // times smaller.
            switch store.codes.storage {
            case .one(let codes): number(through: codes)
            case .two(let codes): number(through: codes)
            case .four(let codes): number(through: codes)
            }
        } else {
            /// Numbers the rows by `key`, one hash lookup a row.
            func number<Key: Hashable>(by key: (UInt32) -> Key) {
                var numberOfKey: [Key: Int32] = [:]
                for (position, slot) in slots.enumerated() {
                    let key = key(slot)
                    if let number = numberOfKey[key] {
                        rowCodes[position] = number
                    } else {
                        rowCodes[position] = Int32(values.count)
                        numberOfKey[key] = Int32(values.count)
                        values.append(store[slot])
                    }
                }
            }
            if store.orderKeyIsExact { number { store.orderKey(at: $0) } } else { number { store[$0] } }
        }
        self.values = values
        self.rowCodes = rowCodes
    }
}

/// A view's rows gathered into leaves (one path of values, outermost level first), leaves
/// numbered as first met: worked out a level at a time, each level pairing the leaves so far
/// with the level's values through a flat table (or, when the pairs could be too many for one,
/// a hash of them).
struct LeafGrouping {
    /// Each leaf's path: a value number a level.
    private(set) var paths: [[Int32]]
    /// Each row's leaf, by position in the view.
    private(set) var leafOfRow: [Int32]

    /// The leaves of rows whose values level by level are numbered `rowCodes` (`valueCounts`
    /// different values a level).
    init(_ rowCodes: [[Int32]], valueCounts: [Int]) {
        leafOfRow = rowCodes[0]
        paths = (0..<Int32(valueCounts[0])).map { [$0] }
        for level in 1..<rowCodes.count {
            let width = valueCounts[level]
            let codes = rowCodes[level]
            var pairs: [(leaf: Int32, code: Int32)] = []
            let flatSize = paths.count * width
            if flatSize <= max(1 << 20, 2 * codes.count) {
                var numberOfPair = [Int32](repeating: -1, count: flatSize)
                numberOfPair.withUnsafeMutableBufferPointer { numberOfPair in
                    codes.withUnsafeBufferPointer { codes in
                        leafOfRow.withUnsafeMutableBufferPointer { leafOfRow in
                            for position in leafOfRow.indices {
                                let pair = Int(leafOfRow[position]) * width + Int(codes[position])
                                var number = numberOfPair[pair]
                                if number < 0 {
                                    number = Int32(pairs.count)
                                    numberOfPair[pair] = number
                                    pairs.append((leafOfRow[position], codes[position]))
                                }
                                leafOfRow[position] = number
                            }
                        }
                    }
                }
            } else {
                var numberOfPair: [Int: Int32] = [:]
                for position in leafOfRow.indices {
                    let pair = Int(leafOfRow[position]) * width + Int(codes[position])
                    if let number = numberOfPair[pair] {
                        leafOfRow[position] = number
                    } else {
                        let number = Int32(pairs.count)
                        numberOfPair[pair] = number
                        pairs.append((leafOfRow[position], codes[position]))
                        leafOfRow[position] = number
                    }
                }
            }
            paths = pairs.map { paths[Int($0.leaf)] + [$0.code] }
        }
    }
}

extension SectionedRows {
    /// Where the rows fall for building summaries, each held slot's leaf given by `leafOfSlot`:
    /// each level's groups, then the grand total's one group when the spec has a grand total.
    func summaryLayout(leafOfSlot: [Int32], heldCount: Int) -> SummaryLayout {
        let levelCount = depth + (spec.grandTotal != nil ? 1 : 0)
        var groupBase = [0]
        for level in 0..<depth { groupBase.append(groupBase.last! + shape.groupCount(level)) }
        if spec.grandTotal != nil { groupBase.append(groupBase.last! + 1) }
        var leafGroups = [Int32](repeating: 0, count: leafCount * levelCount)
        for leaf in 0..<leafCount {
            for level in 0..<depth {
                leafGroups[leaf * levelCount + level] = Int32(groupBase[level] + shape.group(level, of: leaf))
            }
            if spec.grandTotal != nil { leafGroups[leaf * levelCount + depth] = Int32(groupBase[depth]) }
        }
        // Every slot held (a view of a whole table with no slot free): the slots in sequence,
        // with no look at each slot's leaf.
        var heldSlots: [UInt32] = []
        if heldCount == leafOfSlot.count {
            heldSlots = Array(0..<UInt32(heldCount))
        } else {
            heldSlots.reserveCapacity(heldCount)
            leafOfSlot.withUnsafeBufferPointer { leafOfSlot in
                for (slot, leaf) in leafOfSlot.enumerated() where leaf >= 0 { heldSlots.append(UInt32(slot)) }
            }
        }
        return SummaryLayout(
            leafOfSlot: leafOfSlot,
            heldSlots: heldSlots,
            levelCount: levelCount,
            leafGroups: leafGroups,
            groupBase: groupBase
        )
    }
}
