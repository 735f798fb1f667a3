import DataTableClient
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A load on the daemon from many connections at once, in one thread: every connection keeps
/// `pipeline` requests in flight (sends them together, reads their replies, sends the next),
/// and one `poll` loop serves them all, as redis-benchmark does.
struct LoadGenerator {
    /// What a run measured.
    struct Result {
        var requests: Int
        var seconds: Double
        /// Per request: from sending its batch to reading its reply.
        var latencies: [Double]

        var throughput: Double { Double(requests) / seconds }
    }

    let socketPath: String
    let clients: Int
    let pipeline: Int

    /// Sends `total` requests, taking `lines` in turn (each connection starting at its own
    /// place), after each connection has sent `setup` and read its reply. A reply with an
    /// `"error"` member stops the run.
    func run(total: Int, lines: [String], setup: String? = nil) throws -> Result {
        precondition(!lines.isEmpty && clients > 0 && pipeline > 0)
        var connections: [Connection] = []
        defer { for connection in connections { close(connection.descriptor) } }
        for index in 0..<clients {
            let descriptor = try UnixSocket.connect(socketPath)
            connections.append(Connection(descriptor: descriptor, next: index * 7919 % lines.count))
            if let setup {
                try UnixSocket.writeAll(descriptor, Array((setup + "\n").utf8))
                try connections[index].awaitReplies(1)
            }
        }
        let encoded = lines.map { Array(($0 + "\n").utf8) }
        var latencies: [Double] = []
        latencies.reserveCapacity(total)
        var sent = 0
        let start = ContinuousClock.now
        func sendBatch(_ index: Int) throws {
            let count = min(pipeline, total - sent)
            guard count > 0 else { return }
            var batch: [UInt8] = []
            for _ in 0..<count {
                batch += encoded[connections[index].next]
                connections[index].next = (connections[index].next + 1) % encoded.count
            }
            connections[index].inFlight = count
            connections[index].sentAt = .now
            sent += count
            try UnixSocket.writeAll(connections[index].descriptor, batch)
        }
        for index in connections.indices { try sendBatch(index) }
        var pollers = connections.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
        while latencies.count < total {
            guard poll(&pollers, nfds_t(pollers.count), 30_000) > 0 else {
                throw BenchClient.Refused(description: "no reply within 30 s")
            }
            for index in pollers.indices where pollers[index].revents != 0 {
                let replies = try connections[index].readReplies()
                let elapsed = ContinuousClock.now - connections[index].sentAt
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                for _ in 0..<replies { latencies.append(seconds) }
                connections[index].inFlight -= replies
                if connections[index].inFlight == 0 { try sendBatch(index) }
            }
        }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Result(requests: total, seconds: seconds, latencies: latencies)
    }

    /// One connection's state: its descriptor, the next line to send, replies owed, and bytes
    /// of a reply read in part.
    private struct Connection {
        var descriptor: Int32
        var next: Int
        var inFlight = 0
        var sentAt = ContinuousClock.now
        var partial: [UInt8] = []
        /// Where reads land, kept from read to read (the measuring client should cost little).
        var chunk = [UInt8](repeating: 0, count: 1 << 16)

        /// Reads what is there; returns how many whole replies it completed. It costs what
        /// redis-benchmark's reading costs: newlines found with `memchr`, and of each reply
        /// only its first bytes looked at (and kept, when a reply spans reads).
        mutating func readReplies() throws -> Int {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { throw BenchClient.Refused(description: "the daemon closed a connection") }
            return try chunk.withUnsafeBytes { bytes in
                var replies = 0
                var lineStart = 0
                while lineStart <= count {
                    let hit = lineStart < count ? memchr(bytes.baseAddress! + lineStart, 0x0A, count - lineStart) : nil
                    let end = hit.map { bytes.baseAddress!.distance(to: UnsafeRawPointer($0)) } ?? count
                    if partial.count < Self.kept {
                        partial.append(contentsOf: bytes[lineStart..<min(end, lineStart + Self.kept - partial.count)])
                    }
                    guard hit != nil else { break }
                    try Self.check(partial)
                    partial.removeAll(keepingCapacity: true)
                    lineStart = end + 1
                    replies += 1
                }
                return replies
            }
        }

        /// Blocks until `count` replies have come.
        mutating func awaitReplies(_ count: Int) throws {
            var received = 0
            while received < count { received += try readReplies() }
        }

        /// Fails on an error reply. Replies put `error` or `id` first (keys are sorted), so
        /// only the start of a line is looked at.
        /// How much of a reply is kept for ``check(_:)``.
        static let kept = 300

        static func check(_ line: [UInt8]) throws {
            if line.starts(with: errorStart) {
                throw BenchClient.Refused(description: String(decoding: line.prefix(300), as: UTF8.self))
            }
        }

        private static let errorStart = Array(#"{"error""#.utf8)
    }
}
