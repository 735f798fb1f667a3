/// When the log of changes is forced to disk (`--fsync`), as with Redis' `appendfsync`.
///
/// Under every policy a reply is sent only once its change is written to the log, so a crash
/// of the daemon (`kill -9`) loses nothing acknowledged; the policy says what a crash of the
/// machine may lose.
public enum FsyncPolicy: String, Sendable, CaseIterable {
    /// A change is forced to disk before its reply is sent. Replies waiting at the same moment
    /// share one fsync (group commit). A crash of the machine loses nothing acknowledged.
    case always
    /// The log is forced to disk once a second: a crash of the machine loses at most about the
    /// last second.
    case everysec
    /// The kernel decides when the log reaches the disk.
    case no
}
