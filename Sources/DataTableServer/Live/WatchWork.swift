import Foundation
import Synchronization

/// Works out live windows (`watch`) on threads of their own, niced (``niceness``), so
/// the deltas of many watchers never hold up a request on an event loop: a writer keeps its
/// speed while the windows it changes are worked out beside it.
///
/// A job is a connection's due watches, worked out on a copy of its context (the connection
/// answers nothing else meanwhile, so each connection has at most one job at a time, and the
/// queue is never longer than the connections). Jobs start in the order they came; the threads
/// live as long as the process.
final class WatchWork: Sendable {
    /// The runner every connection uses: half the cores, at least one.
    static let shared = WatchWork(threads: threads)

    /// How many threads ``shared`` runs.
    static let threads = max(1, ProcessInfo.processInfo.activeProcessorCount / 2)

    /// How much the threads are niced: more than ``HeavyWork``'s, since a writer's request that
    /// waits behind a window costs every client, and a window that waits a millisecond costs
    /// one viewer nothing it would see.
    static let niceness: Int32 = 10

    private let jobs = Mutex([@Sendable () -> Void]())
    private let ready = DispatchSemaphore(value: 0)

    private init(threads: Int) {
        for number in 0..<threads {
            let thread = Thread { [self] in
                HeavyWork.lowerPriority(by: Self.niceness)
                while true {
                    ready.wait()
                    jobs.withLock { $0.isEmpty ? nil : $0.removeFirst() }?()
                }
            }
            thread.name = "watch-\(number)"
            thread.start()
        }
    }

    /// Runs `job` on one of the threads, after the jobs submitted before it.
    func submit(_ job: @escaping @Sendable () -> Void) {
        jobs.withLock { $0.append(job) }
        ready.signal()
    }
}
