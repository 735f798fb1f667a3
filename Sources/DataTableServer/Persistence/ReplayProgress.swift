/// How far a restore got, told to the service manager (`STATUS=`, with `EXTEND_TIMEOUT_USEC=`
/// so a long restore is not taken for a hung one) without a message per record: at the start and
/// the end of each log, and in between at most once every ``interval``.
struct ReplayProgress {
    /// The least time between two reports within a log.
    static let interval = Duration.milliseconds(500)

    private let report: @Sendable (String) -> Void
    private var name = ""
    private var total = 0
    private var done = 0
    private var due = ContinuousClock.now

    init(report: @escaping @Sendable (String) -> Void) {
        self.report = report
    }

    /// Replay of the log called `name` (`log.3`), holding `records` records, begins.
    mutating func starting(_ name: String, records: Int) {
        self.name = name
        total = records
        done = 0
        tell()
    }

    /// One more record of the current log is replayed.
    mutating func replayedOne() {
        done += 1
        if done == total || ContinuousClock.now >= due { tell() }
    }

    private mutating func tell() {
        report("Replaying \(name): \(done) of \(total) changes")
        due = ContinuousClock.now + Self.interval
    }
}
