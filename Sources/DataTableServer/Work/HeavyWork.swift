import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Runs long computations (a sort of a million rows, an export, a first measuring layout) on
/// threads of their own, at a lower scheduling priority than the event loops, so a client of
/// another table is answered while they run, even on a machine with fewer cores than jobs.
///
/// At most ``limit`` jobs run at once; more wait their turn in the order they came. Each job gets
/// a new thread that ends with it (a job is long: the thread costs little beside it), so no
/// pool's thread keeps the lower priority once its job is done.
final class HeavyWork: Sendable {
    /// The runner every request uses.
    static let shared = HeavyWork(limit: 4)

    /// How much the jobs' threads are niced (`setpriority`): enough that an event loop waking
    /// up runs first, not so much that a busy machine starves the job.
    static let niceness: Int32 = 5

    let limit: Int
    private let state = Mutex(Queue())

    private struct Queue {
        var running = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    init(limit: Int) {
        precondition(limit > 0)
        self.limit = limit
    }

    /// Runs `body` on a thread of its own and returns what it returns (or throws what it throws).
    func run<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        await acquire()
        defer { release() }
        let job = Job(body)
        return try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                Self.lowerPriority()
                // The job lets go of `body` (and all it holds, a load's parsed rows say) before
                // the caller resumes, not when the thread object goes.
                let result = job.run()
                continuation.resume(with: result)
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// A job's body, dropped as soon as it has run.
    private final class Job<Result: Sendable>: @unchecked Sendable {
        // Set once, taken once, by the job's own thread only.
        private var body: (@Sendable () throws -> Result)?

        init(_ body: @escaping @Sendable () throws -> Result) { self.body = body }

        func run() -> Swift.Result<Result, any Error> {
            let body = self.body.take()!
            return Swift.Result { try body() }
        }
    }

    private func acquire() async {
        await withCheckedContinuation { continuation in
            let runNow = state.withLock { queue in
                guard queue.running < limit else {
                    queue.waiting.append(continuation)
                    return false
                }
                queue.running += 1
                return true
            }
            if runNow { continuation.resume() }
        }
    }

    private func release() {
        let next = state.withLock { queue in
            guard !queue.waiting.isEmpty else {
                queue.running -= 1
                return CheckedContinuation<Void, Never>?.none
            }
            return queue.waiting.removeFirst()
        }
        next?.resume()
    }

    /// Nices the calling thread only (by ``niceness`` unless told): Linux keeps a nice value per thread, and `who` 0 names
    /// the calling one.
    static func lowerPriority(by niceness: Int32 = niceness) {
        #if os(Linux)
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
        #endif
    }
}
