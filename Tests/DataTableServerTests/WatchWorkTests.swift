import Foundation
import Synchronization
import Testing

@testable import DataTableServer

/// Live windows are worked out off the event loops: jobs run on the watch threads, in order,
/// niced; and a connection is woken once per table until it looks at the table again.
@Suite struct WatchWorkTests {
    @Test func jobsRunInTheOrderTheyCameOnANicedThread() async throws {
        let order = Mutex<[Int]>([])
        let niceness = Mutex<[Int32]>([])
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            for job in 0..<20 {
                WatchWork.shared.submit {
                    order.withLock { $0.append(job) }
                    errno = 0
                    niceness.withLock { $0.append(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)) }
                    if job == 19 { done.resume() }
                }
            }
        }
        if WatchWork.threads == 1 { #expect(order.withLock { $0 } == Array(0..<20)) }
        #expect(Set(order.withLock { $0 }) == Set(0..<20))
        #expect(niceness.withLock { $0 }.allSatisfy { $0 == WatchWork.niceness })
    }

    @Test func aTableWakesAConnectionOnceUntilItLooks() {
        let wakes = WatchWakes()
        #expect(wakes.shouldWake("t"))
        #expect(!wakes.shouldWake("t"), "a second change before the connection looked wakes it again")
        #expect(wakes.shouldWake("u"), "another table's change waits on the first")
        wakes.looking(at: "t")
        #expect(wakes.shouldWake("t"), "a change after the connection looked does not wake it")
        #expect(!wakes.shouldWake("u"))
    }
}
