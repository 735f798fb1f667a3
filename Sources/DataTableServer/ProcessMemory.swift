import Foundation

/// The daemon's own memory use, read from `/proc/self/statm`.
enum ProcessMemory {
    /// Resident set size in bytes, or `nil` where `/proc` is not readable.
    static func residentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

extension ProcessMemory {
    /// Returns memory the allocator holds but no longer uses to the system (after a large load).
    static func releaseFreedMemory() {
        // glibc's malloc_trim, looked up at run time: its header is not part of the Glibc module.
        typealias Trim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
    }
}
