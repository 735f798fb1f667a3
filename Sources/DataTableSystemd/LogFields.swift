import Logging

/// What both log handlers do alike: merge metadata and map swift-log levels to syslog priorities.
enum LogFields {
    /// The syslog priority (0 emergency … 7 debug) of a swift-log level, as journald's
    /// `PRIORITY=` and the `<N>` stderr prefix use it.
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    /// The handler's metadata, then the provider's, then the event's: later ones win.
    static func merged(
        _ handler: Logger.Metadata,
        _ provider: Logger.MetadataProvider?,
        _ event: Logger.Metadata?
    ) -> Logger.Metadata {
        var merged = handler
        if let provided = provider?.get(), !provided.isEmpty {
            merged.merge(provided, uniquingKeysWith: { _, new in new })
        }
        if let event, !event.isEmpty {
            merged.merge(event, uniquingKeysWith: { _, new in new })
        }
        return merged
    }
}
