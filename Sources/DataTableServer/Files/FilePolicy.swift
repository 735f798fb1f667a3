import CFileAccess
import DataTableProtocol
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Which files a client may name by path.
///
/// The rule: the daemon never reads or writes a file that the requesting peer (`SO_PEERCRED`)
/// could not read or write itself. It holds by construction:
/// - a peer that is root or the daemon's own user may name any path: its own rights reach every
///   file the daemon's do;
/// - anyone else may name a path only beneath a directory the administrator set aside for it
///   (`--import-dir` for `load`, `--export-dir` for `export`), opened strictly beneath it: no
///   `..`, no symbolic link and no `/proc` magic link on the way;
/// - everyone else sends the rows (`text`, or an upload in pieces) and takes an export as text or
///   `chunk` notifications.
public struct FilePolicy: Sendable, Hashable {
    /// Where any peer may `load` from by path.
    public var importDirectory: String?
    /// Where any peer may `export` to by path.
    public var exportDirectory: String?

    /// A policy with the directories given, trailing slashes dropped; without an import (export)
    /// directory, only root and the daemon's own user may `load` from (`export` to) a path.
    public init(importDirectory: String? = nil, exportDirectory: String? = nil) {
        self.importDirectory = importDirectory.map(Self.normalized)
        self.exportDirectory = exportDirectory.map(Self.normalized)
    }

    /// A directory's path without a trailing slash.
    private static func normalized(_ path: String) -> String {
        var path = path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path
    }

    /// The paths `peer` may name, as `hello` reports them.
    func paths(for peer: PeerCredentials?) -> HelloRequest.FilePaths {
        if Self.isPrivileged(peer) { return HelloRequest.FilePaths(anyPath: true) }
        // An unidentified peer may name no path at all.
        guard peer != nil else { return HelloRequest.FilePaths(anyPath: false) }
        return HelloRequest.FilePaths(anyPath: false, importDir: importDirectory, exportDir: exportDirectory)
    }

    /// Whether `peer`'s own rights reach every file the daemon's do.
    static func isPrivileged(_ peer: PeerCredentials?) -> Bool {
        guard let peer else { return false }
        return peer.uid == 0 || peer.uid == geteuid()
    }

    /// The part of `path` beneath `directory` (a relative path is taken as beneath it), or
    /// `nil` when `path` lies elsewhere.
    static func relative(_ path: String, beneath directory: String) -> String? {
        guard path.hasPrefix("/") else { return path }
        let prefix = directory == "/" ? "/" : directory + "/"
        guard path.hasPrefix(prefix), path.count > prefix.count else { return nil }
        return String(path.dropFirst(prefix.count))
    }

    /// Opens the file a `load` names, for reading, as `peer` may: without blocking (a FIFO or
    /// a device opens at once, and is refused by ``ClientFile``).
    func openForLoad(_ path: String, peer: PeerCredentials?) throws(ResponseError) -> ClientFile {
        let flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC
        if Self.isPrivileged(peer) {
            return try ClientFile(path: path, descriptor: open(path, flags))
        }
        // The import directory is for peers the daemon can name, as the export directory is.
        guard peer != nil, let directory = importDirectory, let inside = Self.relative(path, beneath: directory) else {
            throw ResponseError(
                code: .notPermitted,
                kind: .notPermitted,
                message: importDirectory.map {
                    "You may load by path only from beneath \($0); send the rows as text instead "
                        + "(datatable load and the Python client do)."
                }
                    ?? "Only root or the daemon's own user may load from a path; send the rows as text instead "
                    + "(datatable load and the Python client do).",
                details: ["field": .string("params.path")]
            )
        }
        let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directoryDescriptor >= 0 else {
            throw ClientFile.failure("The import directory \(directory) cannot be opened")
        }
        defer { close(directoryDescriptor) }
        return try ClientFile(path: path, descriptor: datatabled_open_beneath(directoryDescriptor, inside, flags))
    }
}

/// A file a client named, opened: read only if it is a regular file, and only up to a limit.
struct ClientFile: ~Copyable {
    let path: String
    private let descriptor: Int32
    /// Its size when it was opened.
    let size: Int

    /// Takes `descriptor` as `open` returned it for `path` (-1: refused with the system's
    /// reason), and checks what it is: a FIFO, a device, a socket or a directory could be read
    /// forever or block, so only a regular file is accepted, whatever stood at the path before.
    init(path: String, descriptor: Int32) throws(ResponseError) {
        guard descriptor >= 0 else {
            let error = errno
            if error == EACCES || error == EPERM {
                // The daemon's own rights do not reach it: the client may still send it.
                throw ResponseError(
                    code: .notPermitted,
                    kind: .notPermitted,
                    message: "The daemon may not read \(path); send the rows as text instead "
                        + "(datatable load and the Python client do).",
                    details: ["field": .string("params.path")]
                )
            }
            let reason = error == EXDEV ? "it is not beneath the import directory" : String(cString: strerror(error))
            throw Self.failure("The file \(path) cannot be opened: \(reason)")
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw .invalidValue("\(path) is not a regular file.", field: "params.path")
        }
        self.path = path
        self.descriptor = descriptor
        size = Int(status.st_size)
    }

    deinit { close(descriptor) }

    /// Every byte of the file, refusing one that grows past `limit` bytes while it is read.
    func readAll(limit: Int) throws(ResponseError) -> [UInt8] {
        // Read into the array's memory as it is made (not filled with zeros first); one byte
        // more than the size, to see a file that grew since.
        let first = min(size, limit) + 1
        var failure: Int32 = 0
        var bytes = [UInt8](unsafeUninitializedCapacity: first) { buffer, initialized in
            (initialized, failure) = Self.read(descriptor, into: buffer)
        }
        if failure != 0 {
            throw Self.failure("The file \(path) could not be read: \(String(cString: strerror(failure)))")
        }
        var count = bytes.count
        if count < first { return bytes }
        while true {
            if count == bytes.count {
                guard count <= limit else {
                    throw .limitExceeded(
                        "The file \(path) is larger than \(limit) bytes.",
                        limit: "maxMemoryBytes",
                        value: limit
                    )
                }
                bytes.append(contentsOf: repeatElement(0, count: min(max(count, 1 << 16), limit + 1 - count)))
            }
            let read = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + count, buffer.count - count, off_t(count))
            }
            if read < 0 {
                if errno == EINTR { continue }
                throw Self.failure("The file \(path) could not be read: \(String(cString: strerror(errno)))")
            }
            if read == 0 { break }
            count += read
        }
        bytes.removeLast(bytes.count - count)
        return bytes
    }

    /// Files of at least this many bytes are read in pieces on every core (the copy out of the
    /// page cache and the faults that give the array its memory, at once).
    static let piecewiseReadBytes = 1 << 24

    /// Reads `descriptor` from its start into `buffer` until it is full or the file ends: the
    /// bytes read (those from the start without a gap), or an `errno`.
    private static func read(_ descriptor: Int32, into buffer: UnsafeMutableBufferPointer<UInt8>) -> (Int, Int32) {
        let pieces =
            buffer.count < piecewiseReadBytes ? 1 : max(1, min(8, ProcessInfo.processInfo.activeProcessorCount))
        let bounds = (0...pieces).map { $0 * buffer.count / pieces }
        let target = UnsafeMutableSendableBytes(buffer)
        let results = Mutex([(count: Int, failure: Int32)](repeating: (0, 0), count: pieces))
        DispatchQueue.concurrentPerform(iterations: pieces) { piece in
            var count = 0
            var failure: Int32 = 0
            let start = bounds[piece]
            let length = bounds[piece + 1] - start
            while count < length {
                let read = pread(
                    descriptor,
                    target.buffer.baseAddress! + start + count,
                    length - count,
                    off_t(start + count)
                )
                if read < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    break
                }
                if read == 0 { break }
                count += read
            }
            results.withLock { $0[piece] = (count, failure) }
        }
        var total = 0
        for (piece, result) in results.withLock({ $0 }).enumerated() {
            if result.failure != 0 { return (total, result.failure) }
            total += result.count
            // The file ends in this piece: what later pieces read (if it grew meanwhile) is
            // not after these bytes.
            if result.count < bounds[piece + 1] - bounds[piece] { break }
        }
        return (total, 0)
    }

    static func failure(_ message: String) -> ResponseError {
        .invalidValue(message + ".", field: "params.path")
    }
}

/// A buffer whose pieces are filled by the threads of `concurrentPerform`, each its own.
private struct UnsafeMutableSendableBytes: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<UInt8>
    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) { self.buffer = buffer }
}
