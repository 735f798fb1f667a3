import Foundation

/// File operations of the state directory, each done the crash-safe way.
enum StateFiles {
    /// The snapshot's file name, and the name it is written under before it replaces the last one.
    static let snapshotName = "snapshot"
    static let snapshotStagingName = "snapshot.new"
    /// The file a running daemon holds locked, so two never share a directory.
    static let lockName = "lock"

    /// Forces the directory's entries (a new, renamed or removed file) to disk.
    static func syncDirectory(_ directory: String) {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    /// The whole file at `path`, or `nil` when there is none.
    static func read(_ path: String) throws(StateDirectoryError) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw .system("cannot open \(path)", errno)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .system("cannot read \(path)", errno) }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                Foundation.read(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                if count == 0 { break }
                throw .system("cannot read \(path)", errno)
            }
            offset += count
        }
        return Array(bytes.prefix(offset))
    }

    /// Replaces the file at `path` with `chunks` atomically: written to a staging file, forced to
    /// disk, renamed over `path`, and the directory forced to disk.
    static func replace(_ path: String, staging: String, with chunks: [[UInt8]]) throws(StateDirectoryError) {
        try write(staging, chunks)
        try install(staging, as: path)
    }

    /// Writes `chunks` to a new file at `staging` (replacing any there) and forces it to disk.
    static func write(_ staging: String, _ chunks: [[UInt8]]) throws(StateDirectoryError) {
        unlink(staging)
        let descriptor = open(staging, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .system("cannot create \(staging)", errno) }
        var failure: Int32?
        for chunk in chunks where failure == nil { failure = writeAll(descriptor, chunk) }
        if failure == nil, fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        if let failure {
            unlink(staging)
            throw .system("cannot write \(staging)", failure)
        }
    }

    /// Renames the file written at `staging` over `path` and forces the directory to disk.
    static func install(_ staging: String, as path: String) throws(StateDirectoryError) {
        guard rename(staging, path) == 0 else {
            let error = errno
            unlink(staging)
            throw .system("cannot rename \(staging) to \(path)", error)
        }
        syncDirectory((path as NSString).deletingLastPathComponent)
    }

    /// Writes all of `bytes` to `descriptor`; the `errno` of a failed write, or `nil`.
    static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Int32? {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += count
            }
            return nil
        }
    }

    /// Refuses a state directory someone other than the daemon's user could plant files in: it
    /// must be a directory owned by that user and writable by nobody else (as sshd and
    /// PostgreSQL ask of theirs).
    static func checkTrusted(_ directory: String) throws(StateDirectoryError) {
        var status = stat()
        guard stat(directory, &status) == 0 else { throw .system("cannot read \(directory)", errno) }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw .untrusted("\(directory) is not a directory") }
        let mode = String(status.st_mode & 0o7777, radix: 8)
        guard status.st_uid == geteuid() else {
            throw .untrusted(
                "the state directory \(directory) belongs to uid \(status.st_uid), not to the daemon's user "
                    + "(uid \(geteuid())); chown it to that user"
            )
        }
        guard status.st_mode & 0o022 == 0 else {
            throw .untrusted(
                "the state directory \(directory) (mode \(mode)) may be written by others than the daemon's user; "
                    + "chmod 700 it"
            )
        }
    }

    /// The log generations in `directory`, smallest first.
    static func logGenerations(in directory: String) throws(StateDirectoryError) -> [UInt64] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw .system("cannot list \(directory)", errno)
        }
        return names.compactMap { name in
            name.hasPrefix("log.") ? UInt64(name.dropFirst(4)) : nil
        }.sorted()
    }
}

/// Why the state directory could not be used.
public enum StateDirectoryError: Error, Sendable, CustomStringConvertible {
    /// A system call failed.
    case system(String, Int32)
    /// A file holds something it should not; the daemon refuses to start rather than lose it.
    case damaged(String)
    /// Another daemon holds the directory.
    case inUse(String)
    /// A change could not be written.
    case notSaved(String)
    /// The directory is not the daemon's alone.
    case untrusted(String)

    /// What went wrong in one line, with the system's reason for a failed call.
    public var description: String {
        switch self {
        case .system(let what, let error): "\(what): \(String(cString: strerror(error)))"
        case .damaged(let message), .inUse(let message), .untrusted(let message): message
        case .notSaved(let message): "the change could not be saved: \(message)"
        }
    }
}
