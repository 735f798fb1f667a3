import Synchronization

/// Runs asynchronous work one piece at a time, in the order it was asked for: the next piece
/// starts once the one before has finished, awaits included (an actor would let another piece
/// in at each of them).
final class SerialLine: Sendable {
    private struct State {
        var busy = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Mutex(State())

    /// Runs `body` once every piece asked for before it has finished.
    func run<Result: Sendable>(_ body: () async throws -> Result) async throws -> Result {
        await enter()
        defer { leave() }
        return try await body()
    }

    private func enter() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state in
                if state.busy {
                    state.waiting.append(waiter)
                    return false
                }
                state.busy = true
                return true
            }
            if now { waiter.resume() }
        }
    }

    private func leave() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiting.isEmpty {
                state.busy = false
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
