import Logging
import Synchronization

/// Keeps log entries in memory so a test can assert what was logged.
struct InMemoryLogHandler: LogHandler {
    struct Entry: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: Logger.Metadata
    }

    final class Store: Sendable {
        let entries = Mutex<[Entry]>([])
        var all: [Entry] { entries.withLock { $0 } }
    }

    let store: Store
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:], uniquingKeysWith: { _, new in new })
        store.entries.withLock { $0.append(Entry(level: event.level, message: "\(event.message)", metadata: merged)) }
    }

    /// A logger writing into a fresh store, and the store.
    static func logger(level: Logger.Level = .trace) -> (Logger, Store) {
        let store = Store()
        var logger = Logger(label: "test") { _ in InMemoryLogHandler(store: store) }
        logger.logLevel = level
        return (logger, store)
    }
}
