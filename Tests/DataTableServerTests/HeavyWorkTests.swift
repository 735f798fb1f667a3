import Foundation
import Synchronization
import Testing

@testable import DataTableServer

/// How many jobs run now, and the most that ran at once.
private final class Gauge: Sendable {
    let running = Synchronization.Atomic<Int>(0)
    let most = Synchronization.Atomic<Int>(0)
}

/// Long jobs run on threads of their own, never more at once than the limit, each handing back
/// its result or its error.
@Suite struct HeavyWorkTests {
    struct Refusal: Error, Equatable { var job: Int }

    @Test func jobsRunWithinTheLimitAndReturnWhatTheyReturn() async throws {
        let work = HeavyWork(limit: 2)
        let gauge = Gauge()
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            for job in 0..<8 {
                group.addTask {
                    try await work.run {
                        let now = gauge.running.add(1, ordering: .relaxed).newValue
                        _ = gauge.most.max(now, ordering: .relaxed)
                        usleep(20_000)
                        gauge.running.subtract(1, ordering: .relaxed)
                        return job * job
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.sorted() == (0..<8).map { $0 * $0 })
        #expect(gauge.most.load(ordering: .relaxed) <= 2)
    }

    @Test func aJobsErrorReachesItsCaller() async throws {
        let work = HeavyWork(limit: 1)
        await #expect(throws: Refusal(job: 3)) {
            try await work.run { () throws -> Int in throw Refusal(job: 3) }
        }
        // The slot it held is free again.
        #expect(try await work.run { 7 } == 7)
    }

    @Test func aJobRunsAtALowerPriorityOnAThreadOfItsOwn() async throws {
        let base = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        let nice = try await HeavyWork(limit: 1).run { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }
        #expect(nice == min(19, base + HeavyWork.niceness))
        // The caller's threads keep their priority: the job's thread was its own.
        #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) == base)
    }
}
