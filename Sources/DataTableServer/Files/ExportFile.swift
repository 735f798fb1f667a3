import CFileAccess
import DataTableProtocol
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A file an `export` writes: a new file of mode 0600 beside the target, renamed over it once
/// every byte is written and forced to disk, so the name holds the old content or the whole
/// new one, never a part.
///
/// The temporary file is created with `O_EXCL | O_NOFOLLOW` relative to the directory's
/// descriptor, and the rename replaces the name itself (a symbolic link there is replaced, not
/// followed). Only a regular file (or nothing) may stand at the name.
///
/// Who may name which path is ``FilePolicy``'s rule: root and the daemon's own user any path;
/// anyone else only beneath `--export-dir`, where the directory is opened strictly beneath it,
/// a file already at the name must be the peer's own, and the new file becomes the peer's.
struct ExportFile: Sendable {
    let path: String
    private let directory: String
    private let name: String
    /// For a peer held to the export directory: the directory, the peer, and where beneath it
    /// the file goes.
    private let confined: (base: String, inside: String, peer: PeerCredentials)?

    /// Checks `path` for `peer`: absolute (or, beneath `--export-dir`, relative to it), naming a
    /// file in an existing directory the peer may write to.
    init(path: String, peer: PeerCredentials?, policy: FilePolicy) throws(ResponseError) {
        guard !path.hasSuffix("/") else { throw .invalidValue("path must name a file.", field: "params.path") }
        if FilePolicy.isPrivileged(peer) {
            guard path.hasPrefix("/") else {
                throw .invalidValue("path must be an absolute path to a file.", field: "params.path")
            }
            confined = nil
        } else {
            guard let peer, let base = policy.exportDirectory, let inside = FilePolicy.relative(path, beneath: base)
            else {
                throw ResponseError(
                    code: .notPermitted,
                    kind: .notPermitted,
                    message: policy.exportDirectory.map {
                        "You may export to a path only beneath \($0); use stream: true instead."
                    } ?? "Only root or the daemon's own user may export to a path; use stream: true instead.",
                    details: ["field": .string("params.path")]
                )
            }
            confined = (base, inside, peer)
        }
        let url = URL(fileURLWithPath: path.hasPrefix("/") ? path : (confined!.base + "/" + path))
        name = url.lastPathComponent
        directory = url.deletingLastPathComponent().path
        self.path = url.path
        guard name != "." && name != ".." else {
            throw .invalidValue("path must name a file.", field: "params.path")
        }
        if confined == nil {
            var status = stat()
            if lstat(self.path, &status) == 0 {
                let type = status.st_mode & S_IFMT
                guard type == S_IFREG || type == S_IFLNK else {
                    throw .invalidValue("\(self.path) is not a regular file.", field: "params.path")
                }
            }
        }
    }

    /// The directory the file goes in, opened as the peer may: for a confined peer, strictly
    /// beneath the export directory; then a file already at the name must be the peer's own
    /// regular file.
    private func openDirectory() throws(ResponseError) -> Int32 {
        guard let confined else {
            let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else { throw failure("cannot open the directory \(directory)") }
            return descriptor
        }
        let base = open(confined.base, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard base >= 0 else { throw failure("cannot open the export directory \(confined.base)") }
        defer { close(base) }
        let parent = (confined.inside as NSString).deletingLastPathComponent
        let descriptor = datatabled_open_beneath(
            base,
            parent.isEmpty ? "." : parent,
            O_RDONLY | O_DIRECTORY | O_CLOEXEC
        )
        guard descriptor >= 0 else {
            let reason = errno == EXDEV ? "it is not beneath the export directory" : String(cString: strerror(errno))
            throw .invalidValue("The directory of \(path) cannot be opened: \(reason).", field: "params.path")
        }
        var status = stat()
        // The peer's own rights to the directory, as its mode says (its primary group only).
        guard fstat(descriptor, &status) == 0, Self.mayWrite(status, confined.peer) else {
            close(descriptor)
            throw ResponseError(
                code: .notPermitted,
                kind: .notPermitted,
                message: "You may not write to the directory of \(path).",
                details: ["field": .string("params.path")]
            )
        }
        if fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 {
            guard status.st_mode & S_IFMT == S_IFREG, status.st_uid == confined.peer.uid else {
                close(descriptor)
                throw ResponseError(
                    code: .notPermitted,
                    kind: .notPermitted,
                    message: "\(path) is there and is not a file of yours; export under another name.",
                    details: ["field": .string("params.path")]
                )
            }
        }
        return descriptor
    }

    /// Writes what `produce` emits, then puts the file in place. Returns the rows `produce`
    /// reports and the bytes written.
    func write(_ produce: (_ emit: ([UInt8]) throws -> Void) throws -> Int) throws -> (rows: Int, bytes: Int) {
        let directoryDescriptor = try openDirectory()
        defer { close(directoryDescriptor) }
        var staging = ""
        var descriptor: Int32 = -1
        for attempt in 0..<100 {
            staging = ".\(name).\(getpid()).\(attempt).export"
            descriptor = openat(
                directoryDescriptor,
                staging,
                O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                0o600
            )
            if descriptor >= 0 || errno != EEXIST { break }
        }
        guard descriptor >= 0 else { throw failure("cannot create a file in \(directory)") }
        var placed = false
        defer {
            if descriptor >= 0 { close(descriptor) }
            if !placed { unlinkat(directoryDescriptor, staging, 0) }
        }
        if let peer = confined?.peer, fchown(descriptor, peer.uid, peer.gid) != 0 {
            // A daemon that is not root cannot give the file away: the peer may still read it.
            _ = fchmod(descriptor, 0o644)
        }
        var bytes = 0
        let rows = try produce { chunk in
            try Self.writeAll(descriptor, chunk, failure: failure)
            bytes += chunk.count
        }
        guard fsync(descriptor) == 0 else { throw failure("cannot write \(path)") }
        close(descriptor)
        descriptor = -1
        guard renameat(directoryDescriptor, staging, directoryDescriptor, name) == 0 else {
            throw failure("cannot put the file in place at \(path)")
        }
        placed = true
        _ = fsync(directoryDescriptor)
        return (rows, bytes)
    }

    /// Whether `peer` may make files in a directory of `status`, by its mode.
    private static func mayWrite(_ status: stat, _ peer: PeerCredentials) -> Bool {
        let mode = status.st_mode
        if peer.uid == status.st_uid { return mode & 0o300 == 0o300 }
        if peer.gid == status.st_gid { return mode & 0o030 == 0o030 }
        return mode & 0o003 == 0o003
    }

    private static func writeAll(
        _ descriptor: Int32,
        _ bytes: [UInt8],
        failure: (String) -> ResponseError
    ) throws(ResponseError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw failure("cannot write the file")
            }
            offset += written
        }
    }

    /// An `invalid_value` naming the path, with the system's reason.
    private func failure(_ what: String) -> ResponseError {
        .invalidValue("\(what): \(String(cString: strerror(errno))).", field: "params.path")
    }
}
