/// When the log of changes is forced to disk (`--fsync`), as with Redis' `appendfsync`.
public enum FsyncPolicy: String, Sendable, CaseIterable {
    /// A change is on disk before its reply is sent. Replies waiting at the same moment share one
    /// fsync (group commit).
    case always
    /// Changes are written at once and forced to disk once a second: a crash of the machine
    /// loses at most about the last second; a crash of the daemon alone loses only changes not
    /// yet handed to the kernel.
    case everysec
    /// Changes are written at once and the kernel decides when they reach the disk.
    case no
}
