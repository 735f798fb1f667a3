/// Builds the binary form of a table image: fixed-width numbers in little-endian byte order and
/// length-prefixed UTF-8 text.
public struct ByteWriter: Sendable {
    /// What has been written so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty writer with room for `capacity` bytes.
    public init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// One byte.
    public mutating func write(_ value: UInt8) {
        bytes.append(value)
    }

    /// An integer in its own width (`MemoryLayout<Integer>.size` bytes), little-endian.
    public mutating func write<Integer: FixedWidthInteger>(_ value: Integer) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// A double as its 64-bit IEEE 754 bit pattern, little-endian.
    public mutating func write(_ value: Double) {
        write(value.bitPattern)
    }

    /// One byte: 1 for `true`, 0 for `false`.
    public mutating func write(_ value: Bool) {
        bytes.append(value ? 1 : 0)
    }

    /// A 32-bit byte count, then the text's UTF-8.
    public mutating func write(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            write(UInt32(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    /// Bytes as they are, with no length in front.
    public mutating func write(raw: some Sequence<UInt8>) {
        bytes.append(contentsOf: raw)
    }

    /// The memory of `values` as it is, which is their little-endian form on every platform
    /// this runs on (x86-64 and arm64).
    mutating func writeMemory<Element: BitwiseCopyable>(of values: [Element]) {
        values.withUnsafeBytes { bytes.append(contentsOf: $0) }
    }
}

/// Reads what a ``ByteWriter`` wrote; any read past the end, or text that is not UTF-8, throws
/// ``TableImageError``.
public struct ByteReader: Sendable {
    /// What is read, without a copy: a whole array or a part of one.
    private let bytes: ArraySlice<UInt8>
    /// Where the next read starts, counted from the start of `bytes`.
    public private(set) var offset: Int

    /// A reader of `bytes` (without a copy), its first read `offset` bytes from their start.
    public init(_ bytes: ArraySlice<UInt8>, offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    /// A reader of `bytes`, its first read `offset` bytes from their start.
    public init(_ bytes: [UInt8], offset: Int = 0) {
        self.init(bytes[...], offset: offset)
    }

    /// Whether every byte has been read.
    public var isAtEnd: Bool { offset == bytes.count }

    private mutating func take(_ count: Int) throws(TableImageError) -> Range<Int> {
        guard count >= 0, bytes.count - offset >= count else {
            throw TableImageError("it ends early (at byte \(offset), \(count) more were expected)")
        }
        defer { offset += count }
        return offset..<offset + count
    }

    /// The next `count` bytes, without a copy.
    public mutating func readBytes(_ count: Int) throws(TableImageError) -> ArraySlice<UInt8> {
        let range = try take(count)
        return bytes[bytes.startIndex + range.lowerBound..<bytes.startIndex + range.upperBound]
    }

    /// The next byte.
    public mutating func readByte() throws(TableImageError) -> UInt8 {
        bytes[bytes.startIndex + (try take(1).lowerBound)]
    }

    /// The next integer of that width, little-endian.
    public mutating func read<Integer: FixedWidthInteger>(_: Integer.Type) throws(TableImageError) -> Integer {
        let range = try take(MemoryLayout<Integer>.size)
        var value = Integer.zero
        withUnsafeMutableBytes(of: &value) { target in
            bytes.withUnsafeBytes { source in
                target.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[range]))
            }
        }
        return Integer(littleEndian: value)
    }

    /// The next 8 bytes as a double's bit pattern.
    public mutating func readDouble() throws(TableImageError) -> Double {
        Double(bitPattern: try read(UInt64.self))
    }

    /// The next byte: `false` when it is 0, else `true`.
    public mutating func readBool() throws(TableImageError) -> Bool {
        try readByte() != 0
    }

    /// A 32-bit byte count, then that many bytes of text; throws when they are not UTF-8.
    public mutating func readString() throws(TableImageError) -> String {
        let count = Int(try read(UInt32.self))
        let range = try take(count)
        let start = bytes.startIndex
        guard let text = String(validating: bytes[start + range.lowerBound..<start + range.upperBound], as: UTF8.self)
        else {
            throw TableImageError("text at byte \(range.lowerBound) is not UTF-8")
        }
        return text
    }

    /// A count that is about to be used to size an array: at most what the remaining bytes
    /// could hold at `bytesEach` bytes per element, so a damaged count cannot ask for a huge
    /// allocation.
    public mutating func readCount(bytesEach: Int = 1) throws(TableImageError) -> Int {
        let count = try read(UInt64.self)
        guard count <= UInt64((bytes.count - offset) / max(bytesEach, 1)) else {
            throw TableImageError("a count (\(count)) at byte \(offset - 8) is larger than the data left")
        }
        return Int(count)
    }

    /// `count` values laid out as ``ByteWriter/writeMemory(of:)`` wrote them.
    mutating func readMemory<Element: BitwiseCopyable>(_: Element.Type, count: Int) throws(TableImageError)
        -> [Element]
    {
        let range = try take(count * MemoryLayout<Element>.stride)
        return [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            bytes.withUnsafeBytes { source in
                UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(rebasing: source[range]))
            }
            initialized = count
        }
    }
}

/// Why a table image could not be read back.
public struct TableImageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the image, as a clause ("it ends early …").
    public var description: String

    /// An error saying `description`.
    public init(_ description: String) {
        self.description = description
    }
}
