import DataTableClient
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Nothing a client puts at a path may block the daemon: one thread swaps a regular file and a
/// FIFO at one path as fast as it can, a client loads that path again and again, and another
/// client pings throughout. Every ping's round trip is measured.
struct FIFORace {
    let socketPath: String
    let scratch: URL
    let seconds: Int

    /// The ping round trips, in seconds, and how many loads ran meanwhile.
    func measure() throws -> (pings: [Double], loads: Int) {
        let path = scratch.appendingPathComponent("race.csv").path
        let racing = Atomic(true)
        let swapper = Thread {
            var fifo = false
            while racing.load(ordering: .relaxed) {
                unlink(path)
                if fifo {
                    mkfifo(path, 0o644)
                } else {
                    _ = FileManager.default.createFile(atPath: path, contents: Data("item\nBolt\n".utf8))
                }
                fifo.toggle()
            }
        }
        swapper.start()
        defer {
            racing.store(false, ordering: .relaxed)
            unlink(path)
        }
        let loads = Atomic(0)
        let failure = Mutex<String?>(nil)
        let loader = Thread { [socketPath] in
            do {
                let connection = try LineConnection(path: socketPath)
                let line = #"{"id":1,"method":"load","params":{"table":"race","path":"\#(path)"}}"#
                while racing.load(ordering: .relaxed) {
                    try connection.send(line: line)
                    _ = try connection.nextReply()
                    loads.add(1, ordering: .relaxed)
                }
            } catch {
                failure.withLock { $0 = "\(error)" }
            }
        }
        loader.start()
        let client = BenchClient(connection: try LineConnection(path: socketPath))
        var pings: [Double] = []
        let end = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < end {
            pings.append(try client.timed(#"{"id":2,"method":"ping"}"#))
            usleep(1_000)
        }
        racing.store(false, ordering: .relaxed)
        if let failure = failure.withLock({ $0 }) {
            throw BenchClient.Refused(description: "the loader failed: \(failure)")
        }
        _ = try client.timed(#"{"id":3,"method":"drop","params":{"table":"race"}}"#)
        return (pings, loads.load(ordering: .relaxed))
    }
}
