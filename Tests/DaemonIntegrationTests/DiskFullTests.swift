import DataTableProtocol
import Foundation
import Glibc
import Testing

/// A change that cannot be saved is not made: a state directory on a real, small tmpfs is
/// filled, then grown with `mount -o remount` while the daemon runs.
@Suite(.tags(.slow), .enabled(if: canMountTmpfs, "needs root and tmpfs mounts"))
struct DiskFullTests {

    /// Adds 20 rows of about 1 KB each, numbered from `first`; the error kind, if refused.
    static func addBatch(_ client: UnixClient, first: Int) throws -> ErrorKind? {
        let note = String(repeating: "x", count: 1000)
        let rows: [JSONValue] = (first..<first + 20).map { ["n": .integer(Int64($0)), "note": .string(note)] }
        do {
            let added = try client.send(AddRequest(table: "feed", rows: rows))
            #expect(added.added.count == 20)
            return nil
        } catch let error as ResponseError {
            return error.kind
        }
    }

    static func numbers(in daemon: TestDaemon) throws -> Set<Int> {
        let client = try daemon.connect()
        var numbers: Set<Int> = []
        var from = 0
        while true {
            let rows = try client.send(GetRequest(table: "feed", from: from, count: 10000, columns: ["n"])).rows
            for row in rows { numbers.insert(try #require(row.values["n"]?.intValue, "\(row.values)")) }
            from += rows.count
            if rows.count < 10000 { return numbers }
        }
    }

    @Test func aFullDiskRefusesChangesUnmadeAndTheyResumeWhenItGrows() throws {
        let disk = try Scratch()
        defer { disk.remove() }
        try #require(try run(which("mount")!, ["-t", "tmpfs", "-o", "size=3m", "tmpfs", disk.path]).status == 0)
        defer { _ = try? run(which("umount")!, ["-l", disk.path]) }
        let arguments = ["--state-dir", disk.file("state"), "--fsync", "always"]
        var acknowledged: Set<Int> = []
        do {
            let daemon = try TestDaemon(arguments: arguments)
            let client = try daemon.connect()
            let created = try client.send(
                CreateRequest(
                    table: "feed",
                    columns: [ColumnDefinition(key: "n", type: .number), ColumnDefinition(key: "note")]
                )
            )
            try #require(created.version == 1, "\(created)")

            // Fill the disk: every batch is either acknowledged or refused not_saved.
            var next = 0
            var refusal: ErrorKind?
            while refusal == nil, next < 200_000 {
                refusal = try Self.addBatch(client, first: next)
                if refusal == nil { acknowledged.formUnion(next..<next + 20) }
                next += 20
            }
            #expect(refusal == .notSaved)
            #expect(acknowledged.count > 1000, "the disk took only \(acknowledged.count) rows")
            // Still full: still refused, and reads go on.
            for _ in 0..<3 {
                #expect(try Self.addBatch(client, first: next) == .notSaved)
                next += 20
            }
            let edit = try client.failure(EditRequest(table: "feed", id: 1, column: "note", value: "changed"))
            #expect(edit.kind == .notSaved, "\(edit)")
            // Nothing refused is readable: exactly the acknowledged rows are there.
            #expect(try Self.numbers(in: daemon) == acknowledged)
            let stopped = try #require(try client.send(StatsRequest()).durability)
            #expect(stopped.failure != nil && stopped.stoppedAt != nil, "\(stopped)")

            // More room, without a restart: changes are accepted again within a few seconds.
            try #require(try run(which("mount")!, ["-o", "remount,size=64m", disk.path]).status == 0)
            try waitUntil("changes are accepted again after the remount", timeout: .seconds(10)) {
                let kind = try Self.addBatch(client, first: next)
                #expect(kind == nil || kind == .notSaved)
                defer { next += 20 }
                guard kind == nil else { return false }
                acknowledged.formUnion(next..<next + 20)
                return true
            }
            for _ in 0..<5 {
                #expect(try Self.addBatch(client, first: next) == nil)
                acknowledged.formUnion(next..<next + 20)
                next += 20
            }
            let resumed = try #require(try client.send(StatsRequest()).durability)
            #expect(resumed.failure == nil && resumed.resumedAt != nil, "\(resumed)")
            #expect(resumed.stops == 1)
            #expect(daemon.process.output.contains("cannot take changes"), "\(daemon.process.output)")
            #expect(daemon.process.output.contains("takes changes again"), "\(daemon.process.output)")
            _ = daemon.process.stop(signal: SIGKILL)
        }
        // After kill -9, exactly the acknowledged rows come back.
        let restarted = try TestDaemon(arguments: arguments)
        #expect(try Self.numbers(in: restarted) == acknowledged)
        _ = restarted.process.stop(signal: SIGKILL)
    }
}

/// Whether this machine lets the tests mount a tmpfs.
private let canMountTmpfs: Bool = {
    guard getuid() == 0, let mount = which("mount"), let umount = which("umount") else { return false }
    guard let probe = try? Scratch() else { return false }
    defer { probe.remove() }
    guard (try? run(mount, ["-t", "tmpfs", "-o", "size=1m", "tmpfs", probe.path]))?.status == 0 else {
        return false
    }
    _ = try? run(umount, [probe.path])
    return true
}()
