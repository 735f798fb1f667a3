import DataTableEngine
import Foundation

/// One record of the state directory: in a log, each acknowledged change; in a snapshot, its
/// header, every table and an end mark.
///
/// A file of records starts with ``fileMagic``. On disk a record is framed as an 8-byte
/// little-endian payload length, a 4-byte CRC-32C of the payload, a 4-byte CRC-32C of the 12
/// bytes before it (so a damaged length is told from a record cut short), then the payload: a
/// kind byte and the kind's bytes. (Files written before the magic existed frame records with the
/// length and payload checksum only; they are still read.)
enum StateRecord: Equatable {
    /// What a change did to a table (a ``TableChange`` in its binary form), made again at
    /// start-up, with the table's name and its version right after the change, to check the
    /// replay against.
    case change(ArraySlice<UInt8>, table: String, version: UInt64)
    /// A request line that changed a table (the record of the one change with no table-level
    /// form, a `drop`, and of every change in logs written before ``change(_:table:version:)``
    /// existed), replayed through its method at start-up.
    case request(Data, table: String, version: UInt64)
    /// A whole table, replacing any table of its name (what a `load` leaves in the log, and what
    /// a snapshot holds).
    case table(ArraySlice<UInt8>)
    /// The daemon's settings that decide what later changes do (how many changes each table
    /// can take back), logged when a daemon starts with other settings than the log had: a
    /// replay takes them at that point, as the daemon did.
    case settings(undoDepth: Int)
    /// The first record of a snapshot: its format and the first log generation it does not cover.
    case snapshotHeader(SnapshotHeader)
    /// The last record of a snapshot; a snapshot without it was cut short.
    case snapshotEnd(tables: Int)

    /// The bytes in front of every payload: its length, its checksum and the frame's checksum.
    static let frameBytes = 16

    /// The frame of files written before ``fileMagic``: length and payload checksum.
    static let legacyFrameBytes = 12

    /// The first bytes of every log and snapshot file.
    static let fileMagic: [UInt8] = Array("DTSTATE2".utf8)

    private enum Kind: UInt8 {
        case request = 1, table = 2, snapshotHeader = 3, snapshotEnd = 4, change = 5, settings = 6
    }

    /// The record framed for a file. The payload is written once, straight into the frame.
    func framed() -> [UInt8] {
        var writer = ByteWriter(capacity: Self.frameBytes + 1 + contentSize)
        writer.write(UInt64(0))  // the payload's length and checksums, filled in below
        writer.write(UInt32(0))
        writer.write(UInt32(0))
        switch self {
        case .change(let bytes, let table, let version):
            writer.write(Kind.change.rawValue)
            writer.write(version)
            writer.write(table)
            writer.write(raw: bytes)
        case .request(let line, let table, let version):
            writer.write(Kind.request.rawValue)
            writer.write(version)
            writer.write(table)
            writer.write(raw: line)
        case .table(let bytes):
            writer.write(Kind.table.rawValue)
            writer.write(raw: bytes)
        case .snapshotHeader(let header):
            writer.write(Kind.snapshotHeader.rawValue)
            writer.write(raw: try! JSONEncoder().encode(header))
        case .snapshotEnd(let tables):
            writer.write(Kind.snapshotEnd.rawValue)
            writer.write(UInt64(tables))
        case .settings(let undoDepth):
            writer.write(Kind.settings.rawValue)
            writer.write(UInt64(undoDepth))
        }
        var bytes = writer.bytes
        let payload = bytes[Self.frameBytes...]
        let checksum = payload.withUnsafeBytes { CRC32C.checksum($0) }
        withUnsafeBytes(of: UInt64(payload.count).littleEndian) { bytes.replaceSubrange(0..<8, with: $0) }
        withUnsafeBytes(of: checksum.littleEndian) { bytes.replaceSubrange(8..<12, with: $0) }
        let frameChecksum = bytes[0..<12].withUnsafeBytes { CRC32C.checksum($0) }
        withUnsafeBytes(of: frameChecksum.littleEndian) { bytes.replaceSubrange(12..<16, with: $0) }
        return bytes
    }

    /// The framed size of a request record of `line` for the table called `table`.
    static func requestSize(line: Data, table: String) -> Int {
        frameBytes + 1 + 8 + 4 + table.utf8.count + line.count
    }

    /// Whether `payload` is a record of the daemon's settings rather than of a change.
    static func isSettings(_ payload: ArraySlice<UInt8>) -> Bool {
        payload.first == Kind.settings.rawValue
    }

    /// The framed size of a change record of `bytes` for the table called `table`.
    static func changeSize(bytes: Int, table: String) -> Int {
        frameBytes + 1 + 8 + 4 + table.utf8.count + bytes
    }

    /// The framed size of a table record holding `image`.
    static func tableSize(image: [UInt8]) -> Int {
        frameBytes + 1 + image.count
    }

    /// Bytes of the payload after its kind, roughly, to size the frame once.
    private var contentSize: Int {
        switch self {
        case .change(let bytes, let table, _): bytes.count + table.utf8.count + 12
        case .request(let line, let table, _): line.count + table.utf8.count + 12
        case .table(let bytes): bytes.count
        case .snapshotHeader: 128
        case .snapshotEnd, .settings: 8
        }
    }

    /// Reads a payload (a record without its frame).
    init(payload: ArraySlice<UInt8>) throws(StateRecordError) {
        guard let kind = payload.first.flatMap(Kind.init(rawValue:)) else {
            throw .unknownKind(payload.first)
        }
        let body = payload.dropFirst()
        switch kind {
        case .change:
            var reader = ByteReader(body)
            guard let version = try? reader.read(UInt64.self), let table = try? reader.readString() else {
                throw .unreadableHeader
            }
            self = .change(body.dropFirst(reader.offset), table: table, version: version)
        case .request:
            var reader = ByteReader(Array(body))
            guard let version = try? reader.read(UInt64.self), let table = try? reader.readString() else {
                throw .unreadableHeader
            }
            self = .request(Data(body.dropFirst(reader.offset)), table: table, version: version)
        case .table: self = .table(body)
        case .snapshotHeader:
            guard let header = try? JSONDecoder().decode(SnapshotHeader.self, from: Data(body)) else {
                throw .unreadableHeader
            }
            self = .snapshotHeader(header)
        case .snapshotEnd:
            var reader = ByteReader(Array(body))
            guard let tables = try? reader.read(UInt64.self), reader.isAtEnd else { throw .unreadableHeader }
            self = .snapshotEnd(tables: Int(tables))
        case .settings:
            var reader = ByteReader(Array(body))
            guard let depth = try? reader.read(UInt64.self), depth <= Int32.max, reader.isAtEnd else {
                throw .unreadableHeader
            }
            self = .settings(undoDepth: Int(depth))
        }
    }
}

/// What a snapshot says about itself.
struct SnapshotHeader: Codable, Equatable {
    /// The layout of snapshots and table images.
    var format: Int
    /// Logs from this generation on hold the changes made after the snapshot was taken.
    var generation: UInt64
    /// How many tables follow.
    var tables: Int
    /// How many changes each table could take back when it was taken (absent from snapshots
    /// made before it was kept: the daemon's own setting then).
    var undoDepth: Int?
}

/// Why a record could not be read.
enum StateRecordError: Error, Equatable {
    case unknownKind(UInt8?)
    case unreadableHeader
}

/// The records of one file, split at their frames and checked against their checksums.
///
/// Only a record cut short at the end of the file is what a crash in the middle of a write
/// leaves (``damageIsTorn``): appends leave a prefix of what was written. Anything else (a frame
/// or payload that fails its checksum) is damage, wherever it is.
struct RecordScan {
    /// Each good record's payload, and where its frame starts in the file.
    var records: [(offset: Int, payload: ArraySlice<UInt8>)] = []
    /// Where the good records end: the file's length, unless it ends in a damaged record.
    var goodLength = 0
    /// Why the bytes from `goodLength` on are not a record, when they are not.
    var damage: String?
    /// Whether the damage is only a last record cut short (what a crash in the middle of a write
    /// leaves), rather than damage that may hide more records after it.
    var damageIsTorn = false
    /// Whether the file is framed the way files written before ``StateRecord/fileMagic`` were.
    var isLegacy = false

    /// Splits `bytes` into records. Stops at the first record that is cut short or fails a
    /// checksum.
    init(_ bytes: [UInt8]) {
        let magic = StateRecord.fileMagic
        if bytes.count < magic.count, bytes.elementsEqual(magic.prefix(bytes.count)) {
            // A file whose first write was cut off: nothing in it yet.
            damage = bytes.isEmpty ? nil : "its first bytes are cut short"
            damageIsTorn = true
            return
        }
        isLegacy = !bytes.starts(with: magic)
        var offset = isLegacy ? 0 : magic.count
        let frame = isLegacy ? StateRecord.legacyFrameBytes : StateRecord.frameBytes
        while offset < bytes.count {
            guard bytes.count - offset >= frame else {
                damage = "its last record is cut short (\(bytes.count - offset) bytes of a frame at byte \(offset))"
                damageIsTorn = true
                break
            }
            var reader = ByteReader(Array(bytes[offset..<offset + frame]))
            let length = try! reader.read(UInt64.self)
            let checksum = try! reader.read(UInt32.self)
            if !isLegacy {
                let frameChecksum = try! reader.read(UInt32.self)
                guard bytes[offset..<offset + 12].withUnsafeBytes({ CRC32C.checksum($0) }) == frameChecksum else {
                    damage = "the frame of its record at byte \(offset) fails its checksum"
                    break
                }
            }
            let start = offset + frame
            guard length <= UInt64(bytes.count - start) else {
                damage = "its record at byte \(offset) is cut short (\(bytes.count - start) of \(length) bytes)"
                // Without a frame checksum a damaged length looks the same: only trusted with one.
                damageIsTorn = true
                break
            }
            let payload = bytes[start..<start + Int(length)]
            guard payload.withUnsafeBytes({ CRC32C.checksum($0) }) == checksum else {
                damage = "its record at byte \(offset) fails its checksum"
                break
            }
            records.append((offset, payload))
            offset = start + Int(length)
        }
        goodLength = offset
    }
}
