import Foundation

/// SQLite (through python3's sqlite3 module) on the benchmark's CSV, as the reference for deep
/// scrolling: `SELECT … ORDER BY <indexed column> LIMIT 40 OFFSET n`.
enum SQLiteReference {
    /// The query's median and 99th-percentile seconds over `repeats` runs, after loading the CSV
    /// into a database file in `directory` with `column` an indexed integer column; `nil` when
    /// python3 is missing or fails.
    static func deepScroll(
        csv: String,
        column: String,
        offset: Int,
        repeats: Int,
        directory: URL
    ) -> (median: Double, p99: Double)? {
        guard let python = which("python3") else { return nil }
        let database = directory.appendingPathComponent("bench.sqlite").path
        let script = """
            import csv, sqlite3, statistics, sys, time
            path, database, column, offset, repeats = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
            db = sqlite3.connect(database)
            with open(path, newline="") as f:
                rows = csv.reader(f)
                header = next(rows)
                db.execute("CREATE TABLE t (" + ", ".join(f'"{h}"' + (" INTEGER" if h == column else "") for h in header) + ")")
                db.executemany("INSERT INTO t VALUES (" + ",".join("?" * len(header)) + ")", rows)
            db.execute(f'CREATE INDEX t_{column} ON t ("{column}")')
            db.commit()
            query = f'SELECT * FROM t ORDER BY "{column}" LIMIT 40 OFFSET {offset}'
            assert len(db.execute(query).fetchall()) == 40
            times = []
            for _ in range(repeats):
                start = time.perf_counter()
                db.execute(query).fetchall()
                times.append(time.perf_counter() - start)
            times.sort()
            print(statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.99))])
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script, csv, database, column, String(offset), String(repeats)]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let figures = text.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        guard process.terminationStatus == 0, figures.count == 2 else { return nil }
        return (figures[0], figures[1])
    }
}
