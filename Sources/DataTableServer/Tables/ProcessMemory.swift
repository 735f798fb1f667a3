import Foundation
import Synchronization

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

/// The daemon's resident memory, read at most every tenth of a second: cheap enough to ask on
/// every change that adds rows.
final class MemoryGauge: Sendable {
    private let reading = Mutex<(at: ContinuousClock.Instant, bytes: Int)?>(nil)

    /// Resident bytes, at most 100 ms old.
    var residentBytes: Int {
        let now = ContinuousClock.now
        return reading.withLock { reading in
            if let last = reading, now - last.at < .milliseconds(100) { return last.bytes }
            let bytes = ProcessMemory.residentBytes() ?? 0
            reading = (now, bytes)
            return bytes
        }
    }
}
