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
        let bytes = records.flatMap { $0.framed() }
        let whole = RecordScan(bytes)
        #expect(whole.damage == nil && whole.goodLength == bytes.count)
        #expect(try whole.records.map { try StateRecord(payload: $0.payload) } == records)
        let lastStart = whole.records.last!.offset
        for length in lastStart + 1..<bytes.count {
            let cut = RecordScan(Array(bytes.prefix(length)))
            #expect(cut.records.count == 2 && cut.goodLength == lastStart && cut.damageIsTorn)
        }
        // A flipped byte in the last record: its write was torn. In the first: damage.
        var lastDamaged = bytes
        lastDamaged[bytes.count - 1] ^= 1
        #expect(RecordScan(lastDamaged).damageIsTorn)
        var firstDamaged = bytes
        firstDamaged[StateRecord.frameBytes + 3] ^= 1
        let scan = RecordScan(firstDamaged)
        #expect(scan.records.isEmpty && scan.damage?.contains("checksum") == true && !scan.damageIsTorn)
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
            contents: Data(records.flatMap { $0.framed() })
        )
        let (store, restored) = try await Self.open(directory)
        defer { store.close() }
        #expect(restored.replayed == 3 && restored.diverged == 1)
        #expect(restored.catalog["t"]?.rowCount == 2)
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
