import Foundation

extension BenchCommand {
    /// A view of the large table narrowed by a number range and a grade, then by a search of
    /// every column: the time to set each (every row looked at, off the table's lock), and
    /// scrolls of the filtered view beside the whole table's.
    func measureFilters(client: BenchClient, table: String, into report: inout BenchReport) throws {
        let conditions =
            #"[{"column":"qty","op":"between","values":[100,600]},{"column":"grade","op":"in","values":["Low","High"]}]"#
        let narrowed = try client.timed(
            #"{"id":11,"method":"filter","params":{"table":"\#(table)","where":\#(conditions)}}"#
        )
        report.add(
            "filter \(rows) rows by a number range and two values",
            BenchReport.duration(narrowed),
            target: "< 150 ms"
        )
        let searched = try client.timed(
            #"{"id":12,"method":"filter","params":{"table":"\#(table)","where":[],"search":"widget 12"}}"#
        )
        report.add("search \(rows) rows × 8 columns for a word", BenchReport.duration(searched), target: "< 300 ms")

        // Groups and regular expressions: a plain pattern, then one that sends a backtracking
        // engine into exponential time, over every item.
        let either = try client.timed(
            #"{"id":16,"method":"filter","params":{"table":"\#(table)","search":"","where":[{"any":[{"column":"qty","op":"<","value":100},{"not":{"column":"grade","op":"=","value":"Low"}}]}]}}"#
        )
        report.add("filter \(rows) rows by an any group with a not", BenchReport.duration(either), target: "< 150 ms")
        let plain = try client.timed(
            #"{"id":17,"method":"filter","params":{"table":"\#(table)","where":[{"column":"item","op":"matches","value":"widget 1[0-9]$"}]}}"#
        )
        report.add("filter \(rows) rows by a regular expression", BenchReport.duration(plain), target: "< 300 ms")
        let adversarial = try client.timed(
            #"{"id":18,"method":"filter","params":{"table":"\#(table)","where":[{"column":"item","op":"matches","value":"^(\\w+\\s?)+$x"}]}}"#
        )
        report.add(
            "filter by a pattern that backtracks exponentially elsewhere",
            BenchReport.duration(adversarial),
            target: "as the plain pattern"
        )

        _ = try client.timed(#"{"id":13,"method":"filter","params":{"table":"\#(table)","where":\#(conditions)}}"#)
        let shown = try Self.shownCount(
            client.connection.request(
                #"{"id":14,"method":"scroll","params":{"table":"\#(table)","unit":"cell","viewport":{"y":0,"width":200,"height":41}}}"#
            )
        )
        var generator = SystemRandomNumberGenerator()
        var filtered: [Double] = []
        for _ in 0..<min(samples, 3000) {
            let y = Int.random(in: 0..<max(1, shown), using: &generator)
            filtered.append(
                try client.timed(#"{"id":15,"method":"scroll","params":{"table":"\#(table)","viewport":{"y":\#(y)}}}"#)
            )
        }
        report.add(
            "scroll a filtered view (\(shown) of \(rows) rows shown), 1 client, p50 / p99",
            BenchReport.percentiles(filtered),
            target: "as the whole table's"
        )
        _ = try client.timed(#"{"id":16,"method":"filter","params":{"table":"\#(table)","where":[],"search":""}}"#)

        // Sections: the whole table grouped by grade, then scrolled at random offsets.
        let grouped = try client.timed(
            #"{"id":17,"method":"scroll","params":{"table":"\#(table)","viewport":{"y":0},"sections":{"column":"grade"}}}"#
        )
        report.add("group \(rows) rows into sections by a column", BenchReport.duration(grouped), target: "")
        var sectioned: [Double] = []
        for _ in 0..<min(samples, 3000) {
            let y = Int.random(in: 0..<rows, using: &generator)
            sectioned.append(
                try client.timed(#"{"id":18,"method":"scroll","params":{"table":"\#(table)","viewport":{"y":\#(y)}}}"#)
            )
        }
        report.add(
            "scroll a view in sections, 1 client, p50 / p99",
            BenchReport.percentiles(sectioned),
            target: "as the whole table's"
        )
        _ = try client.timed(#"{"id":19,"method":"scroll","params":{"table":"\#(table)","sections":{}}}"#)

        // Sections that sum up: grouped by grade with totals, then edits that each move a row to
        // another grade, each followed by the scroll that shows every total as the edit left it.
        let aggregates = #"{"qty":["count","sum","avg","max"],"weight":"sum"}"#
        let summed = try client.timed(
            #"{"id":20,"method":"scroll","params":{"table":"\#(table)","viewport":{"y":0},"sections":{"column":"grade","aggregates":\#(aggregates),"grandTotal":"bottom"}}}"#
        )
        report.add(
            "group \(rows) rows by a column with count, sum, avg, max and a grand total",
            BenchReport.duration(summed),
            target: ""
        )
        var moves: [Double] = []
        for sample in 0..<min(samples, 2000) {
            let row = Int.random(in: 0..<rows, using: &generator)
            let grade = BenchData.grades[(row + 1 + sample % 2) % 3]
            let edit = try client.timed(
                #"{"id":21,"method":"edit","params":{"table":"\#(table)","id":"\#(BenchData.sku(row))","column":"grade","value":"\#(grade)"}}"#
            )
            let shown = try client.timed(
                #"{"id":22,"method":"scroll","params":{"table":"\#(table)","viewport":{"y":0}}}"#
            )
            moves.append(edit + shown)
        }
        report.add(
            "edit moving a row to another group, then the scroll with every total, p50 / p99",
            BenchReport.percentiles(moves),
            target: "p99 < 1 ms"
        )
        _ = try client.timed(#"{"id":23,"method":"scroll","params":{"table":"\#(table)","sections":{}}}"#)

        // A set filter's pick list: a text column's different values with their counts.
        let distinct = try client.timed(
            #"{"id":24,"method":"distinct","params":{"table":"\#(table)","column":"rack","order":"count","limit":100}}"#
        )
        report.add(
            "distinct of a \(rows)-row text column with counts",
            BenchReport.duration(distinct),
            target: "< 50 ms"
        )
        let prefixed = try client.timed(
            #"{"id":25,"method":"distinct","params":{"table":"\#(table)","column":"rack","prefix":"R1","limit":100}}"#
        )
        report.add("distinct with a prefix", BenchReport.duration(prefixed), target: "< 10 ms")
    }

    private static func shownCount(_ reply: String) throws -> Int {
        guard let object = try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any],
            let result = object["result"] as? [String: Any], let shown = result["shown"] as? Int
        else {
            throw BenchClient.Refused(description: "a filtered scroll did not say how many rows it shows: \(reply)")
        }
        return shown
    }
}
