import DataTableEngine
import DataTableProtocol
import Foundation
import Testing

@testable import DataTableServer

/// A snapshot holding a table whose image cannot be read: the daemon refuses to start and
/// changes nothing; with `--recover` that table is set aside in a file of its own (and the logs
/// its later changes are in are kept beside it), every other table starts, and `stats` names
/// what was set aside. Nothing is deleted while it cannot be read.
@Suite struct RecoverTableTests {
    /// A state directory whose snapshot holds "good" (two rows) and "bad" (an image whose body
    /// is damaged behind a sound frame, as a writer that wrote what it cannot read would leave),
    /// and a log after it with a change to each.
    static func directoryWithAnUnreadableTable() async throws -> String {
        let directory = StateStoreTests.temporaryDirectory()
        let (store, _) = try await StateStoreTests.open(directory)
        let server = ServerState(limits: ServerLimits(), journal: store.journal)
        store.attach(server)
        var client = InProcessClient(server: server)
        for table in ["good", "bad"] {
            _ = try await client.reply(
                #"{"method":"create","params":{"table":"\#(table)","columns":[{"key":"a"}],"rows":[{"a":"1"},{"a":"2"}]}}"#
            )
        }
        #expect(store.compact())
        for table in ["good", "bad"] {
            _ = try await client.reply(#"{"method":"add","params":{"table":"\#(table)","row":{"a":"after"}}}"#)
        }
        store.close()
        // Rewrite the snapshot with the second table's body cut short.
        let path = directory + "/" + StateFiles.snapshotName
        let scan = RecordScan(try #require(try StateFiles.read(path)))
        var chunks = [StateRecord.fileMagic]
        for (_, payload) in scan.records {
            var record = try StateRecord(payload: payload)
            if case .table(let image) = record, TableImageCoding.name(of: image) == "bad" {
                record = .table(image.dropLast(6))
            }
            chunks.append(record.framed())
        }
        try StateFiles.replace(path, staging: path + ".new", with: chunks)
        return directory
    }

    @Test func anUnreadableTableRefusesTheStartAndRecoverSetsItAside() async throws {
        let directory = try await Self.directoryWithAnUnreadableTable()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        do {
            _ = try await StateStoreTests.open(directory)
            Issue.record("a start without --recover went ahead without the table bad")
        } catch {
            #expect("\(error)".contains("(bad)") && "\(error)".contains("--recover"), "\(error)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == files)

        let (store, restored) = try await StateStore.open(
            directory: directory,
            policy: .always,
            compactAfterBytes: 1 << 30,
            recover: true,
            logger: StateStoreTests.quiet
        )
        #expect(restored.catalog.tableNames == ["good"])
        #expect(restored.catalog["good"]?.rowCount == 3)
        let aside = directory + "/table.bad.damaged"
        #expect(restored.setAside.contains(aside), "\(restored.setAside)")
        #expect(restored.setAside.contains(Journal.logPath(directory: directory, generation: 2) + ".kept"))
        #expect(store.journal.status.setAside == restored.setAside)
        let server = ServerState(limits: ServerLimits(), catalog: restored.catalog, journal: store.journal)
        store.attach(server)
        // A snapshot now leaves the table out, but never its set-aside image and logs.
        #expect(store.compact())
        store.close()
        #expect(FileManager.default.fileExists(atPath: aside))
        #expect(FileManager.default.fileExists(atPath: Journal.logPath(directory: directory, generation: 2) + ".kept"))
        let kept = try #require(try StateFiles.read(Journal.logPath(directory: directory, generation: 2) + ".kept"))
        #expect(RecordScan(kept).records.count == 2)

        // The next start needs no --recover.
        let (again, back) = try await StateStoreTests.open(directory)
        again.close()
        #expect(back.catalog.tableNames == ["good"] && back.catalog["good"]?.rowCount == 3)
    }
}
