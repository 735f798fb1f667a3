import Glibc
import Logging

/// Logs one line per entry to standard error with the `<N>` syslog-priority prefix systemd reads
/// (`sd-daemon.h`'s `SD_ERR` …), followed by the message and the metadata as `key=value`.
///
/// Used when standard error is not connected to the journal: a terminal, a file, a test.
public struct StderrLogHandler: LogHandler {
    /// The least level logged; swift-log drops entries below it before they reach ``log(event:)``.
    public var logLevel: Logger.Level
    /// Metadata written with every entry as `key=value`; the provider's items and the entry's own
    /// win over it.
    public var metadata: Logger.Metadata = [:]
    /// Supplies more metadata at each entry; `nil` for none.
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String

    /// A handler for the logger `label` (which is not written in the lines).
    public init(label: String, logLevel: Logger.Level = .info) {
        self.label = label
        self.logLevel = logLevel
    }

    /// One item of ``metadata``.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes the entry as one line, line breaks in it turned into spaces; a write that fails is
    /// dropped.
    public func log(event: LogEvent) {
        write(line: Self.format(event, metadata: LogFields.merged(metadata, metadataProvider, event.metadata)))
    }

    /// `<6>message key=value …`, on one line.
    static func format(_ event: LogEvent, metadata: Logger.Metadata) -> String {
        var line = "<\(LogFields.priority(event.level))>\(event.message)"
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            line += " \(key)=\(value)"
        }
        return line.split(whereSeparator: \.isNewline).joined(separator: " ") + "\n"
    }

    private func write(line: String) {
        var bytes = Array(line.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { raw in
                Glibc.write(STDERR_FILENO, raw.baseAddress! + offset, raw.count - offset)
            }
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
    }
}
