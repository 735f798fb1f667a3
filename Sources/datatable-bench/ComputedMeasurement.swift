import Foundation

extension BenchCommand {
    /// Computed columns on the large table: adding `qty * weight` (every row worked out, off the
    /// table's lock), a sort by a computed column beside the stored one of the same values, and edits
    /// of `qty` with two computed columns following it beside the same edits without, and scrolls
    /// of a window with a running sum beside the same window without. The table is left as it
    /// was (columns dropped, sorted by `restoreSort`).
    func measureComputedColumns(
        client: BenchClient,
        table: String,
        restoreSort: String,
        into report: inout BenchReport
    ) throws {
        let added = try client.timed(
            #"{"id":40,"method":"alter","params":{"table":"\#(table)","add":[{"key":"value","expression":"qty * weight"}]}}"#
        )
        report.add(
            "add a computed column qty × weight to \(rows) rows",
            BenchReport.duration(added),
            target: "< 100 ms"
        )
        // A sort's time depends on the values (how many differ, how near sorted they lie): a
        // computed column of the same values as the stored qty, qty × 1, is sorted beside qty,
        // each twice in turn, the faster of each kept.
        _ = try client.timed(
            #"{"id":46,"method":"alter","params":{"table":"\#(table)","add":[{"key":"same","expression":"qty * 1"}]}}"#
        )
        var byStored = Double.infinity
        var byComputed = Double.infinity
        for _ in 0..<2 {
            byStored = min(byStored, try client.timed(sort(table, "qty")))
            byComputed = min(byComputed, try client.timed(sort(table, "same")))
        }
        report.add(
            "sort by a computed column (qty × 1), vs by the stored qty",
            String(
                format: "%@ vs %@ = %.2f×",
                BenchReport.duration(byComputed),
                BenchReport.duration(byStored),
                byComputed / byStored
            ),
            target: "≤ 1×"
        )
        _ = try client.timed(sort(table, restoreSort, descending: true))
        _ = try client.timed(#"{"id":47,"method":"alter","params":{"table":"\#(table)","drop":["same"]}}"#)

        func edits(_ id: Int) throws -> [Double] {
            var generator = SystemRandomNumberGenerator()
            var times: [Double] = []
            for sample in 0..<samples {
                let sku = Int.random(in: 0..<rows, using: &generator)
                let line =
                    #"{"id":\#(id),"method":"edit","params":{"table":"\#(table)","id":"\#(BenchData.sku(sku))","column":"qty","value":\#(sample % 1000)}}"#
                times.append(try client.timed(line))
            }
            return times
        }
        _ = try client.timed(#"{"id":41,"method":"alter","params":{"table":"\#(table)","drop":["value"]}}"#)
        let without = try edits(42)
        _ = try client.timed(
            #"{"id":43,"method":"alter","params":{"table":"\#(table)","add":[{"key":"value","expression":"qty * weight"},{"key":"heavy","expression":"value > 1000 and qty > 10"}]}}"#
        )
        let with = try edits(44)
        report.add(
            "edit qty with two computed columns following it, p50 / p99, vs without",
            BenchReport.percentilesBeside(with, without),
            target: "p99 ≤ 1.2×"
        )
        _ = try client.timed(#"{"id":45,"method":"alter","params":{"table":"\#(table)","drop":["value","heavy"]}}"#)
        try measureRunningSumScrolls(client: client, table: table, into: &report)
    }

    /// Scrolls of a window with a running sum of qty shown first, beside the same scrolls with a
    /// column of qty × 1 in its place (a computed column of stored values, as wide): the same
    /// random offsets in turn, the table sorted as it is, every window's values worked out.
    private func measureRunningSumScrolls(client: BenchClient, table: String, into report: inout BenchReport) throws {
        func scrolls(_ expression: String, _ id: Int, offsets: [Int]) throws -> [Double] {
            _ = try client.timed(
                #"{"id":\#(id),"method":"alter","params":{"table":"\#(table)","add":[{"key":"running","expression":"\#(expression)","decimals":0}]}}"#
            )
            // The first scroll lays the table out again and keeps the sums: not counted.
            _ = try client.timed(scroll(table, y: 0, id: id + 1))
            let times = try offsets.map { try client.timed(scroll(table, y: $0, id: id + 1)) }
            _ = try client.timed(
                #"{"id":\#(id + 2),"method":"alter","params":{"table":"\#(table)","drop":["running"]}}"#
            )
            return times
        }
        var generator = SystemRandomNumberGenerator()
        let offsets = (0..<samples).map { _ in Int.random(in: 0..<max(1, rows - 41), using: &generator) }
        let without = try scrolls("qty * 1", 48, offsets: offsets)
        let with = try scrolls("runningSum(qty)", 51, offsets: offsets)
        // The view's column order back as it was.
        _ = try client.timed(
            #"{"id":54,"method":"scroll","params":{"table":"\#(table)","unit":"cell","columnOrder":[],"viewport":{"y":0,"width":200,"height":41}}}"#
        )
        report.add(
            "scroll a window with runningSum(qty), p50 / p99, vs with qty × 1 in its place",
            BenchReport.percentilesBeside(with, without),
            target: "p99 ≤ 1.5×"
        )
    }

    /// A scroll of 41 rows of 200 cells from row offset `y`, the running column first.
    private func scroll(_ table: String, y: Int, id: Int) -> String {
        #"{"id":\#(id),"method":"scroll","params":{"table":"\#(table)","unit":"cell","columnOrder":["running"],"viewport":{"y":\#(y),"width":200,"height":41}}}"#
    }
}
