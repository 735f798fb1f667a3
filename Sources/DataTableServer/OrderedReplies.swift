import Foundation

/// Writes a connection's replies in request order, letting a reply wait for the log record of
/// the change it acknowledges without holding up the reading of the requests after it.
///
/// A reply that waits goes to a task chained after the one before it; requests pipelined behind
/// it are read and carried out meanwhile, their records join the same write (and fsync), and
/// their replies follow in order. A reply that waits for nothing is written at once when nothing
/// is queued ahead of it. At most ``capacity`` replies are queued: then reading stops until they
/// are out, so a client that sends without reading is held back as before.
struct OrderedReplies {
    /// How many replies may wait at once.
    static let capacity = 64

    let journal: Journal?
    /// The connection's event loop: replies written there go out in the order they are
    /// written, where a write from elsewhere would be queued behind the loop's own.
    let executor: any TaskExecutor
    let write: @Sendable (Data) async throws -> Void
    private var tail: Task<Void, Never>?
    private var queued = 0

    init(journal: Journal?, executor: any TaskExecutor, write: @escaping @Sendable (Data) async throws -> Void) {
        self.journal = journal
        self.executor = executor
        self.write = write
    }

    /// Sends `reply` after every reply sent before it.
    mutating func send(_ reply: PendingReply) async throws {
        guard let journal, reply.record != nil else {
            await drain()
            if let line = await reply.settled(by: nil) { try await write(line) }
            return
        }
        let previous = tail
        let write = self.write
        tail = Task(executorPreference: executor) {
            await previous?.value
            guard let line = await reply.settled(by: journal) else { return }
            // A failed write means the connection is gone; the request loop sees it end.
            try? await write(line)
        }
        queued += 1
        if queued >= Self.capacity { await drain() }
    }

    /// Returns once every queued reply is written.
    mutating func drain() async {
        await tail?.value
        tail = nil
        queued = 0
    }
}
