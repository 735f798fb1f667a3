import CSystemd
import Logging
import ServiceLifecycle

/// Sends `WATCHDOG=1` at half the interval systemd asked for (`WATCHDOG_USEC`), for as long as
/// the daemon runs. Finishes at once when no watchdog is configured.
public struct WatchdogService: Service, CustomStringConvertible {
    /// The service's name, as ServiceLifecycle logs it.
    public var description: String { "WatchdogService" }

    private let notifier: SystemdNotifier
    private let logger: Logger

    /// A service that sends keep-alives through `notifier` and logs their interval to `logger`.
    public init(notifier: SystemdNotifier = SystemdNotifier(), logger: Logger) {
        self.notifier = notifier
        self.logger = logger
    }

    /// The interval systemd expects keep-alives within, or `nil` when it expects none.
    public static func interval() -> Duration? {
        var microseconds: UInt64 = 0
        guard sd_watchdog_enabled(0, &microseconds) > 0, microseconds > 0 else { return nil }
        return .microseconds(Int64(microseconds))
    }

    /// Sends `WATCHDOG=1` every half ``interval()`` until graceful shutdown or cancellation;
    /// returns at once when systemd expects no keep-alives.
    public func run() async throws {
        guard let interval = Self.interval() else { return }
        let period = interval / 2
        logger.info("watchdog keep-alives every \(period)")
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                notifier.watchdog()
                try? await Task.sleep(for: period)
            }
        }
    }
}
