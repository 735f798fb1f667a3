import NIOCore

/// Runs a task's jobs on one NIO event loop.
///
/// A connection's session runs with this as its task executor preference, on its channel's
/// event loop: reading a request line, answering it and writing the reply then happen on one
/// thread, without a hop to the concurrency pool and back for every request.
final class EventLoopTaskExecutor: TaskExecutor {
    private let loop: any EventLoop

    init(_ loop: any EventLoop) {
        self.loop = loop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
