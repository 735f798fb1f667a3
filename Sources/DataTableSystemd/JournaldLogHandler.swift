import CSystemd
import Glibc
import Logging

/// Logs to journald natively (`sd_journal_sendv`), with structured fields: `MESSAGE`,
/// `PRIORITY`, `SYSLOG_IDENTIFIER`, `CODE_FILE`/`CODE_LINE`/`CODE_FUNC`, and every metadata item
/// as an upper-case `DATATABLED_…` field (`client.pid` → `DATATABLED_CLIENT_PID`).
///
/// journald silently drops fields whose names are not `[A-Z0-9_]` (or start with `_`, which is
/// for trusted fields), so names are rewritten by ``fieldName(for:)``.
public struct JournaldLogHandler: LogHandler {
    /// The least level logged; swift-log drops entries below it before they reach ``log(event:)``.
    public var logLevel: Logger.Level
    /// Metadata sent with every entry as `DATATABLED_…` fields; the provider's items and the entry's
    /// own win over it.
    public var metadata: Logger.Metadata = [:]
    /// Supplies more metadata at each entry; `nil` for none.
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let identifier: String
    private let fallback: StderrLogHandler

    /// A handler for the logger `label` (sent as `DATATABLED_LOGGER`), with `identifier` as
    /// `SYSLOG_IDENTIFIER`.
    public init(label: String, identifier: String = "datatabled", logLevel: Logger.Level = .info) {
        self.label = label
        self.identifier = identifier
        self.logLevel = logLevel
        self.fallback = StderrLogHandler(label: label, logLevel: logLevel)
    }

    /// One item of ``metadata``.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Sends the entry to journald; when journald does not take it, writes it to standard error
    /// as ``StderrLogHandler`` does.
    public func log(event: LogEvent) {
        let items = LogFields.merged(metadata, metadataProvider, event.metadata)
        var fields = [
            "MESSAGE=\(event.message)",
            "PRIORITY=\(LogFields.priority(event.level))",
            "SYSLOG_IDENTIFIER=\(identifier)",
            "CODE_FILE=\(event.file)",
            "CODE_LINE=\(event.line)",
            "CODE_FUNC=\(event.function)",
            "DATATABLED_LOGGER=\(label)",
        ]
        for (key, value) in items.sorted(by: { $0.key < $1.key }) {
            fields.append("\(Self.fieldName(for: key))=\(value)")
        }
        if Self.send(fields) != 0 {
            // journald went away: stderr still reaches the journal (or a terminal).
            var fallback = self.fallback
            fallback.metadata = metadata
            fallback.log(event: event)
        }
    }

    /// The journal field name for a metadata key: `DATATABLED_` and the key in upper case, with
    /// every character outside `[A-Z0-9_]` turned into `_`, at most 64 characters.
    public static func fieldName(for key: String) -> String {
        var name = "DATATABLED_"
        for scalar in key.unicodeScalars {
            switch scalar {
            case "a"..."z": name.unicodeScalars.append(Unicode.Scalar(scalar.value - 32)!)
            case "A"..."Z", "0"..."9", "_": name.unicodeScalars.append(scalar)
            default: name.append("_")
            }
        }
        return String(name.prefix(64))
    }

    /// Sends one entry; 0 on success, else a negative errno.
    private static func send(_ fields: [String]) -> Int32 {
        var storage: [UInt8] = []
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(fields.count)
        for field in fields {
            let start = storage.count
            storage.append(contentsOf: field.utf8)
            ranges.append(start..<storage.count)
        }
        return storage.withUnsafeMutableBytes { raw in
            var vectors = ranges.map { range in
                iovec(iov_base: raw.baseAddress! + range.lowerBound, iov_len: range.count)
            }
            return sd_journal_sendv(&vectors, Int32(vectors.count))
        }
    }
}
