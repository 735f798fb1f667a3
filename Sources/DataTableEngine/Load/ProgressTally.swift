/// Counts records read by one chunk and reports them every ``TableLoader/progressStep``.
struct ProgressTally {
    private var pending = 0

    mutating func count(_ report: (Int) -> Void) {
        pending += 1
        if pending == TableLoader.progressStep { flush(report) }
    }

    /// Reports what is counted and not yet reported.
    mutating func flush(_ report: (Int) -> Void) {
        report(pending)
        pending = 0
    }
}
