import DataTableEngine
import DataTableProtocol
import Foundation
import Logging
import Testing

@testable import DataTableServer

/// The state directory in process: records framed and scanned, changes logged and replayed,
/// snapshots written and read, damage told apart from a torn last write.
@Suite struct StateStoreTests {
    static let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    static func temporaryDirectory() -> String {
        let path = NSTemporaryDirectory() + "datatabled-state-\(UUID().uuidString)"
        return path
    }

    static func open(_ directory: String, compactAfterBytes: Int = 1 << 30) async throws -> (
        StateStore, StateStore.Restored
    ) {
        try await StateStore.open(
            directory: directory,
            policy: .always,
            compactAfterBytes: compactAfterBytes,
            logger: quiet
        )
    }

    @Test func recordsSplitAtTheirFramesAndATornEndIsToldApart() throws {
        let records: [StateRecord] = [
            .request(Data(#"{"method":"ping"}"#.utf8), table: "t", version: 7),
            .table([1, 2, 3, 4, 5]),
            .snapshotEnd(tables: 2),
        ]
        let bytes = StateRecord.fileMagic + records.flatMap { $0.framed() }
        let whole = RecordScan(bytes)
        #expect(whole.damage == nil && whole.goodLength == bytes.count && !whole.isLegacy)
        #expect(try whole.records.map { try StateRecord(payload: $0.payload) } == records)
        // Cut anywhere: the records wholly before the cut, and the rest is a torn end.
        for length in 0..<bytes.count {
            let cut = RecordScan(Array(bytes.prefix(length)))
            let whole = whole.records.filter { $0.offset + StateRecord.frameBytes + $0.payload.count <= length }
            #expect(cut.records.map(\.offset) == whole.map(\.offset), "cut at \(length)")
            #expect(cut.damage == nil || cut.damageIsTorn, "cut at \(length): \(cut.damage ?? "")")
        }
        // A flipped bit anywhere in any frame, or in any payload, the last record's included: damage,
        // never a torn end, and never a record read past it.
        for (index, record) in whole.records.enumerated() {
            let frameStart = record.offset
            for byte in frameStart..<(frameStart + StateRecord.frameBytes + record.payload.count) {
                for bit in 0..<8 {
                    var damaged = bytes
                    damaged[byte] ^= UInt8(1 << bit)
                    let scan = RecordScan(damaged)
                    #expect(scan.damage != nil && !scan.damageIsTorn, "bit \(bit) of byte \(byte)")
                    #expect(scan.records.count == index, "bit \(bit) of byte \(byte)")
                }
            }
        }
    }

    /// Logs written before records had a frame checksum are still read.
    @Test func aLogFramedTheOldWayIsRead() throws {
        let records: [StateRecord] = [.table([1, 2, 3]), .snapshotEnd(tables: 1)]
        let legacy = records.flatMap { record in
            let framed = record.framed()
            return Array(framed[0..<StateRecord.legacyFrameBytes] + framed[StateRecord.frameBytes...])
        }
        let scan = RecordScan(legacy)
        #expect(scan.isLegacy && scan.damage == nil)
        #expect(try scan.records.map { try StateRecord(payload: $0.payload) } == records)
    }

    /// CRC-32C, eight bytes at a time, is the checksum the standard gives, at every length and
    /// alignment.
    @Test func theChecksumIsCRC32C() {
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
        #expect(CRC32C.checksum([]) == 0)
        func bitwise(_ bytes: ArraySlice<UInt8>) -> UInt32 {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
            }
            return ~crc
        }
        let bytes = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }
        for start in 0..<9 {
            for end in stride(from: start, through: bytes.count, by: 7) {
                let slice = bytes[start..<end]
                #expect(slice.withUnsafeBytes { CRC32C.checksum($0) } == bitwise(slice), "\(start)..<\(end)")
            }
        }
    }

    /// The room a change claims in the log before it is made is exactly what its record takes.
    @Test(arguments: ["", "stock", "ünïcödé table"])
    func theRoomClaimedIsTheSizeOfTheRecord(table: String) {
        let line = Data(#"{"method":"add","params":{"table":"x","row":{"item":"Bolt ✓"}}}"#.utf8)
        #expect(
            StateRecord.requestSize(line: line, table: table)
                == StateRecord.request(line, table: table, version: 7).framed().count
        )
        let image: [UInt8] = Array(repeating: 9, count: 300)
        #expect(StateRecord.tableSize(image: image) == StateRecord.table(image[...]).framed().count)
    }

    @Test func changesAreLoggedAndReplayed() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (store, restored) = try await Self.open(directory)
        #expect(restored.catalog.tableCount == 0 && !restored.fromSnapshot)
        var client = InProcessClient(server: ServerState(limits: ServerLimits(), journal: store.journal))
        _ = try await client.reply(
            #"{"method":"create","params":{"table":"t","columns":[{"key":"a"},{"key":"n","type":"number"}]}}"#
        )
        _ = try await client.reply(#"{"method":"add","params":{"table":"t","rows":[{"a":"x","n":1},{"a":"y","n":2}]}}"#)
        _ = try await client.reply(#"{"method":"select","params":{"table":"t","ids":[2]}}"#)
        _ = try await client.reply(#"{"method":"ping"}"#)
        _ = try await client.reply(#"{"method":"load","params":{"table":"u","format":"csv","text":"p\n1\n2\n"}}"#)
        let described = try await client.reply(#"{"method":"describe","params":{"table":"t"}}"#)
        store.close()

        let (reopened, again) = try await Self.open(directory)
        defer { reopened.close() }
        #expect(again.replayed == 4)
        #expect(again.catalog.tableNames == ["t", "u"])
        var fresh = InProcessClient(server: ServerState(limits: ServerLimits(), catalog: again.catalog))
        #expect(try await fresh.reply(#"{"method":"describe","params":{"table":"t"}}"#) == described)
        #expect(again.catalog["u"]?.rowCount == 2)
    }

    /// A change whose replay does not end at the version it had the first time is counted and
    /// logged, not taken silently.
    @Test func aReplayThatDivergesIsCounted() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = mkdir(directory, 0o700)
        let create = #"{"method":"create","params":{"table":"t","columns":[{"key":"a"}]}}"#
        let add = #"{"method":"add","params":{"table":"t","row":{"a":"x"}}}"#
        let records: [StateRecord] = [
            .request(Data(create.utf8), table: "t", version: 1),
            .request(Data(add.utf8), table: "t", version: 2),
            .request(Data(add.utf8), table: "t", version: 9),
        ]
        _ = FileManager.default.createFile(
            atPath: Journal.logPath(directory: directory, generation: 1),
            contents: Data(StateRecord.fileMagic + records.flatMap { $0.framed() })
        )
        let (store, restored) = try await Self.open(directory)
        defer { store.close() }
        #expect(restored.replayed == 3 && restored.diverged == 1)
        #expect(restored.catalog["t"]?.rowCount == 2)
    }

    /// As SQLite tests its journal: every bit of every record's frame flipped, and the log cut at
    /// every offset. Each start either restores exactly the records wholly there, or refuses to
    /// start and leaves the log as it was; never fewer rows without a word.
    @Test(.tags(.slow)) func everyDamagedFrameIsRefusedAndEveryCutKeepsWhatCameBefore() async throws {
        let source = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: source) }
        do {
            let (store, _) = try await Self.open(source)
            var client = InProcessClient(server: ServerState(limits: ServerLimits(), journal: store.journal))
            _ = try await client.reply(#"{"method":"create","params":{"table":"t","columns":[{"key":"n"}]}}"#)
            for n in 0..<5 {
                _ = try await client.reply(#"{"method":"add","params":{"table":"t","row":{"n":"\#(n)"}}}"#)
            }
            store.close()
        }
        let log = try #require(try StateFiles.read(Journal.logPath(directory: source, generation: 1)))
        let records = RecordScan(log).records
        // The daemon's settings, the create and five adds.
        try #require(records.count == 7)
        func start(with bytes: [UInt8]) async -> (rows: Int?, unchanged: Bool) {
            let directory = Self.temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            _ = mkdir(directory, 0o700)
            let path = Journal.logPath(directory: directory, generation: 1)
            _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
            guard let (store, restored) = try? await Self.open(directory) else {
                return (nil, (try? StateFiles.read(path)) == bytes)
            }
            store.close()
            return (restored.catalog["t"]?.rowCount ?? -1, true)
        }
        for (index, record) in records.enumerated() {
            for byte in record.offset..<record.offset + StateRecord.frameBytes {
                for bit in 0..<8 {
                    var damaged = log
                    damaged[byte] ^= UInt8(1 << bit)
                    let outcome = await start(with: damaged)
                    #expect(outcome.rows == nil && outcome.unchanged, "record \(index), bit \(bit) of byte \(byte)")
                }
            }
        }
        for length in 0...log.count {
            let whole = records.filter { $0.offset + StateRecord.frameBytes + $0.payload.count <= length }.count
            let outcome = await start(with: Array(log.prefix(length)))
            #expect(outcome.rows == (whole <= 1 ? -1 : whole - 2), "cut at \(length)")
        }
    }

    /// A store in `directory` with one table "t", and a snapshot of it written.
    static func snapshotOfOneTable(in directory: String) async throws -> (StateStore, InProcessClient) {
        let (store, _) = try await open(directory)
        let server = ServerState(limits: ServerLimits(), journal: store.journal)
        store.attach(server)
        var client = InProcessClient(server: server)
        _ = try await client.reply(#"{"method":"create","params":{"table":"t","columns":[{"key":"a"}]}}"#)
        #expect(store.compact())
        return (store, client)
    }

    @Test func aSnapshotCoversTheLogsItReplaces() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var (store, client) = try await Self.snapshotOfOneTable(in: directory)
        _ = try await client.reply(#"{"method":"add","params":{"table":"t","row":{"a":"after"}}}"#)
        store.close()
        #expect(try StateFiles.logGenerations(in: directory) == [2])

        let (reopened, restored) = try await Self.open(directory)
        defer { reopened.close() }
        #expect(restored.fromSnapshot && restored.replayed == 1)
        #expect(restored.catalog["t"]?.rowCount == 1)
    }

    @Test func aMissingLogIsDamageNotAFreshStart() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (store, _) = try await Self.snapshotOfOneTable(in: directory)
        store.close()
        unlink(Journal.logPath(directory: directory, generation: 2))
        _ = FileManager.default.createFile(atPath: Journal.logPath(directory: directory, generation: 3), contents: nil)
        await #expect(throws: StateDirectoryError.self) { try await Self.open(directory) }
    }
}
