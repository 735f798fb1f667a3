import CFontconfig
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The bytes of a font file, read so that nothing at the path can block or mislead the daemon:
/// only beneath a directory fontconfig is set up to read fonts from (which the administrator
/// names in its configuration), opened without blocking (a FIFO or a device opens at once),
/// checked as opened (a regular file, at most ``maximumBytes``), and read whole. `datatable web`
/// serves the page the same files, read the same way.
public enum FontFile {
    /// The largest font file read.
    static let maximumBytes = 64 << 20

    /// The directories fontconfig reads fonts from, resolved.
    static let directories: [String] = {
        guard let list = FcConfigGetFontDirs(nil) else { return [] }
        defer { FcStrListDone(list) }
        var directories: [String] = []
        while let next = FcStrListNext(list) {
            let path = String(cString: next)
            directories.append(resolved(path) ?? path)
        }
        return directories
    }()

    /// `path` with every symbolic link and `..` resolved, or `nil` when it does not exist.
    private static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    /// Every byte of the font file at `path`, or why it cannot be read.
    public static func read(_ path: String) throws(FontError) -> [UInt8] {
        guard let real = resolved(path) else { throw FontError("The font file \(path) cannot be found.") }
        guard directories.contains(where: { real.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }) else {
            throw FontError(
                "The font file \(path) is not in a font directory fontconfig reads (fc-list lists the fonts there)."
            )
        }
        let descriptor = open(real, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw FontError("The font file \(path) cannot be opened: \(String(cString: strerror(errno))).")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw FontError("\(path) is not a regular file.")
        }
        let size = Int(status.st_size)
        guard size <= maximumBytes else { throw FontError("The font file \(path) is larger than 64 MiB.") }
        var bytes = [UInt8](repeating: 0, count: size)
        var count = 0
        while count < size {
            let read = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + count, size - count, off_t(count))
            }
            if read < 0, errno == EINTR { continue }
            guard read > 0 else { break }
            count += read
        }
        return Array(bytes.prefix(count))
    }
}
