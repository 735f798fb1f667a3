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
struct ExportFile: Sendable {
    let path: String
    private let directory: String
    private let name: String

    /// Checks `path`: absolute, naming a file in an existing directory.
    init(path: String) throws(ResponseError) {
        guard path.hasPrefix("/"), !path.hasSuffix("/") else {
            throw .invalidValue("path must be an absolute path to a file.", field: "params.path")
        }
        let url = URL(fileURLWithPath: path)
        name = url.lastPathComponent
        directory = url.deletingLastPathComponent().path
        self.path = path
        guard name != "." && name != ".." else {
            throw .invalidValue("path must name a file.", field: "params.path")
        }
        var status = stat()
        if lstat(path, &status) == 0 {
            let type = status.st_mode & S_IFMT
            guard type == S_IFREG || type == S_IFLNK else {
                throw .invalidValue("\(path) is not a regular file.", field: "params.path")
            }
        }
    }

    /// Serves the path form only to a peer whose own rights reach every file the daemon's do:
    /// root, or the daemon's own user. Anyone else streams the export and writes it themselves.
    static func checkPeer(_ peer: PeerCredentials?) throws(ResponseError) {
        guard FilePolicy.isPrivileged(peer) else {
            throw ResponseError(
                code: .notPermitted,
                kind: .notPermitted,
                message: "Only root or the daemon's own user may export to a path; use stream: true instead.",
                details: ["field": .string("params.path")]
            )
        }
    }

    /// Writes what `produce` emits, then puts the file in place. Returns the rows `produce`
    /// reports and the bytes written.
    func write(_ produce: (_ emit: ([UInt8]) throws -> Void) throws -> Int) throws -> (rows: Int, bytes: Int) {
        let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directoryDescriptor >= 0 else { throw failure("cannot open the directory \(directory)") }
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
