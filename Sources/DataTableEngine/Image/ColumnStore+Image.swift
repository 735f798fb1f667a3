extension ColumnStore {
    /// Writes the values of `slots`, in that order: text as length-prefixed UTF-8, everything
    /// else as its fixed-width number.
    func writeImage(of slots: [UInt32], to writer: inout ByteWriter) {
        switch type {
        case .text, .image:
            for slot in slots { writer.write(text(at: slot)) }
        case .number:
            writer.writeMemory(of: slots.map { numbers[Int($0)] })
        case .date, .time, .picker, .boolean:
            writer.writeMemory(of: slots.map { smallIntegers[Int($0)] })
        case .duration, .datetime:
            writer.writeMemory(of: slots.map { largeIntegers[Int($0)] })
        }
    }

    /// Reads `count` values written by ``writeImage(of:to:)`` into a store of `type`.
    static func readImage(type: ColumnType, count: Int, from reader: inout ByteReader) throws(TableImageError)
        -> ColumnStore
    {
        var store = ColumnStore(type: type)
        switch type {
        case .text:
            // Each different text is made once, and the store is coded when texts repeat, as a
            // load leaves it.
            var interner = TextInterner()
            var codes: [UInt32] = []
            codes.reserveCapacity(count)
            for _ in 0..<count {
                let length = Int(try reader.read(UInt32.self))
                let bytes = try reader.readBytes(length)
                codes.append(bytes.withUnsafeBufferPointer { interner.code(of: $0) })
            }
            guard let read = interner.store(codes: codes, validating: true) else {
                throw TableImageError("a text of a column is not UTF-8")
            }
            store = read
        case .image:
            var strings: [String] = []
            strings.reserveCapacity(count)
            for _ in 0..<count {
                let text = try reader.readString()
                store.textHeapBytes += heapBytes(of: text)
                strings.append(text)
            }
            store.strings = strings
        case .number:
            store.numbers = NumberArray(try reader.readMemory(Double.self, count: count))
        case .date, .time, .picker, .boolean:
            store.smallIntegers = try reader.readMemory(Int32.self, count: count)
        case .duration, .datetime:
            store.largeIntegers = try reader.readMemory(Int64.self, count: count)
        }
        return store
    }
}
