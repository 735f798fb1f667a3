import CSystemd

/// Tells the service manager how the daemon is doing (`sd_notify`). Does nothing when
/// `NOTIFY_SOCKET` is not set, so the daemon runs the same outside systemd.
public struct SystemdNotifier: Sendable {
    /// A notifier; each message goes to the `NOTIFY_SOCKET` of the environment when it is sent.
    public init() {}

    /// Sends `KEY=VALUE` lines; `true` when a service manager received them.
    @discardableResult
    public func notify(_ assignments: String...) -> Bool {
        sd_notify(0, assignments.joined(separator: "\n")) > 0
    }

    /// The daemon answers on its socket.
    public func ready(status: String) {
        notify("READY=1", "STATUS=\(Self.oneLine(status))")
    }

    /// A free-form line `systemctl status` shows.
    public func status(_ text: String) {
        notify("STATUS=\(Self.oneLine(text))")
    }

    /// Start-up is under way and `text` says how far it got: with `EXTEND_TIMEOUT_USEC=`, so
    /// a long start (a restore replaying a large log) is not killed by the service's start
    /// timeout while it goes on. The next such report must come within ``startExtension``;
    /// a start that stops reporting times out as before.
    public func starting(_ text: String) {
        notify(
            "EXTEND_TIMEOUT_USEC=\(Self.startExtension.components.seconds * 1_000_000)",
            "STATUS=\(Self.oneLine(text))"
        )
    }

    /// How long each ``starting(_:)`` report lets start-up go on without another.
    public static let startExtension = Duration.seconds(30)

    /// Shutdown has begun.
    public func stopping(status: String) {
        notify("STOPPING=1", "STATUS=\(Self.oneLine(status))")
    }

    /// The daemon is alive (the service's `WatchdogSec=`).
    public func watchdog() {
        notify("WATCHDOG=1")
    }

    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
