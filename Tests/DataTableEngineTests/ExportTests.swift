import CSV
import Foundation
import TestSupport
import Testing

@testable import DataTableEngine

/// Export writes its bytes itself; they must stay exactly what the export wrote when it was
/// built on CSV.swift's `CSVWriter` and `JSONSerialization`, kept below as the reference.
@Suite struct ExportTests {
    // MARK: Against the old export

    @Test(arguments: [false, true])
    func csvIsByteForByteTheOldExport(sorted: Bool) throws {
        var random = SeededRandom(seed: sorted ? 11 : 7)
        let table = try Self.nastyTable(rows: 1500, sorted: sorted, random: &random)
        for selectedOnly in [false, true] {
            let new = table.export(.csv, selectedOnly: selectedOnly)
            let old = OldExport.csv(table, selectedOnly: selectedOnly)
            #expect(new.rows == old.rows)
            Self.expectSame(new.text, old.text)
        }
    }

    @Test(arguments: [false, true])
    func ndjsonIsByteForByteTheOldExport(sorted: Bool) throws {
        var random = SeededRandom(seed: sorted ? 13 : 5)
        let table = try Self.nastyTable(rows: 1500, sorted: sorted, random: &random)
        for selectedOnly in [false, true] {
            let new = table.export(.ndjson, selectedOnly: selectedOnly)
            let old = OldExport.ndjson(table, selectedOnly: selectedOnly)
            #expect(new.rows == old.rows)
            Self.expectSame(new.text, old.text)
        }
    }

    @Test func everyKindOfNumberIsWrittenAsBeforeButNeverWithAnExponent() {
        var random = SeededRandom(seed: 3)
        var numbers = Self.specialNumbers
        for _ in 0..<20_000 { numbers.append(Self.randomNumber(&random)) }
        for number in numbers {
            var json = ExportWriter(capacity: 32)
            json.appendJSONNumber(number)
            #expect(Self.text(json) == OldExport.jsonValue(number), "JSON \(number)")
            var plain = ExportWriter(capacity: 32)
            plain.appendPlainNumber(number)
            #expect(Self.text(plain) == Reference.plain(number), "plain \(number)")
            Reference.checkPlain(Self.text(plain), of: number)
            let decimals = Int(random.next() % 13)
            var fixed = ExportWriter(capacity: 32)
            fixed.appendFixedNumberField(number, decimals: decimals)
            #expect(Self.text(fixed) == NumberText.fixed(number, decimals: decimals), "fixed \(number) \(decimals)")
        }
    }

    /// The display forms as they were first written, with strings: the byte writers, and the
    /// strings now built from them, must read the same.
    private enum Reference {
        /// Whole numbers below 10^15 as integers. Others in the shortest digits that read back
        /// (Swift's `description`), never in exponent form: checked by what must hold of them.
        static func plain(_ number: Double) -> String {
            number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : NumberText.plain(number)
        }

        /// What must hold of the plain text of a number that is not a whole number below 10^15.
        static func checkPlain(_ text: String, of number: Double) {
            guard number.isFinite, !(number == number.rounded() && abs(number) < 1e15) else { return }
            #expect(!text.contains("e") && !text.contains("E"), "\(text) has an exponent")
            #expect(Double(text) == number, "\(text) does not read back as \(number)")
            func significant(_ digits: some StringProtocol) -> String {
                let only = digits.filter(\.isNumber)
                return String(only.drop { $0 == "0" }.reversed().drop { $0 == "0" }.reversed())
            }
            let shortest = "\(number)".split(separator: "e")[0]
            #expect(significant(text) == significant(shortest), "\(text): not the shortest digits \(shortest)")
        }

        static func date(_ days: Int32) -> String {
            let (year, month, day) = CivilDate.components(days: days)
            return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
        }

        static func time(_ seconds: Int32) -> String {
            let value = Int(seconds)
            let text = pad(value / 3600, 2) + ":" + pad(value / 60 % 60, 2)
            return value % 60 == 0 ? text : text + ":" + pad(value % 60, 2)
        }

        static func duration(_ seconds: Int64) -> String {
            guard seconds > 0 else { return "0m" }
            var parts: [String] = []
            if seconds >= 3600 { parts.append("\(seconds / 3600)h") }
            if seconds / 60 % 60 > 0 { parts.append("\(seconds / 60 % 60)m") }
            if seconds % 60 > 0 { parts.append("\(seconds % 60)s") }
            return parts.joined(separator: " ")
        }

        private static func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
        }
    }

    /// What a scroll writes for a cell, byte by byte, is the cell's display text.
    @Test func displayBytesOfEveryTypeReadAsTheDisplayText() throws {
        let values: [(ColumnRules, [CellValue])] = [
            (try ColumnRules(type: .text), [.empty, .text("Bolt \"M8\" ✓"), .text("")]),
            (try ColumnRules(type: .image), [.image("icons/bolt.png")]),
            (try ColumnRules(type: .number), [.number(3), .number(-0.5), .number(1e300), .number(2.5e-7), .empty]),
            (try ColumnRules(type: .number, decimals: 2), [.number(3), .number(0.125), .number(-7.005)]),
            (try ColumnRules(type: .date), [.date(days: 0), .date(days: -800_000), .date(days: 19_800)]),
            (try ColumnRules(type: .time), [.time(seconds: 0), .time(seconds: 34_261)]),
            (
                try ColumnRules(type: .duration),
                [.duration(seconds: 0), .duration(seconds: 5_400), .duration(seconds: 61)]
            ),
            (try ColumnRules(type: .picker, options: ["Low", "High"]), [.picker(option: 1), .picker(option: 5)]),
        ]
        for (rules, cells) in values {
            for value in cells {
                var text = WindowText(capacity: 1)
                rules.displayFormat.append(value, to: &text)
                text.endCell()
                #expect(text[0] == rules.displayText(value), "\(value)")
            }
        }
    }

    @Test func datesTimesAndDurationsReadAsTheirDisplayText() {
        var random = SeededRandom(seed: 9)
        var days: [Int32] = [0, -1, 1, -719_468, -719_469, -800_000, 2_932_896, .max, .min + 1]
        var seconds: [Int32] = [0, 59, 60, 3599, 3600, 86_399, 86_400, -1, -61, .max, .min + 1]
        var durations: [Int64] = [0, -1, 1, 59, 60, 61, 3600, 3601, 3660, 86_400, .max, .min + 1]
        for _ in 0..<5000 {
            days.append(Int32(truncatingIfNeeded: random.next()))
            seconds.append(Int32(truncatingIfNeeded: random.next()))
            durations.append(Int64(bitPattern: random.next()) >> (random.next() % 64))
        }
        for value in days {
            var writer = ExportWriter(capacity: 32)
            writer.appendDate(value)
            #expect(Self.text(writer) == Reference.date(value), "date \(value)")
            #expect(ValueSyntax.dateText(value) == Reference.date(value), "date \(value)")
        }
        for value in seconds {
            var writer = ExportWriter(capacity: 32)
            writer.appendTime(value)
            #expect(Self.text(writer) == Reference.time(value), "time \(value)")
            #expect(ValueSyntax.timeText(value) == Reference.time(value), "time \(value)")
        }
        for value in durations {
            var writer = ExportWriter(capacity: 32)
            writer.appendDuration(value)
            #expect(Self.text(writer) == Reference.duration(value), "duration \(value)")
            #expect(ValueSyntax.durationText(value) == Reference.duration(value), "duration \(value)")
        }
    }

    @Test func textIsQuotedAndEscapedAsBefore() {
        var random = SeededRandom(seed: 21)
        var texts = Self.textPieces
        for _ in 0..<5000 { texts.append(Self.randomText(&random)) }
        // Every ASCII character alone and in pairs.
        for first in 0..<128 {
            let one = String(UnicodeScalar(UInt8(first)))
            texts.append(one)
            for second in 0..<128 { texts.append(one + String(UnicodeScalar(UInt8(second)))) }
        }
        for text in texts {
            var csv = ExportWriter(capacity: 32)
            csv.appendCSVField(text)
            #expect(Self.text(csv) == OldExport.csvField(text), "CSV \(text.debugDescription)")
            var json = ExportWriter(capacity: 32)
            json.appendJSONString(text)
            #expect(Self.text(json) == OldExport.jsonValue(text), "JSON \(text.debugDescription)")
        }
    }

    // MARK: Exact text

    @Test func csvQuotesOnlyWhatNeedsIt() throws {
        var table = try Table(
            name: "t",
            columns: [
                Column(key: "name, full", rules: try ColumnRules(type: .text)),
                Column(key: "price", rules: try ColumnRules(type: .number, decimals: 2)),
                Column(key: "qty", rules: try ColumnRules(type: .number)),
                Column(key: "when", rules: try ColumnRules(type: .date)),
                Column(key: "at", rules: try ColumnRules(type: .time)),
                Column(key: "span", rules: try ColumnRules(type: .duration)),
                Column(key: "grade", rules: try ColumnRules(type: .picker, options: ["Low", "a \"b\", c"])),
            ]
        )
        _ = try table.add(
            [
                Fixtures.row([
                    "name, full": .text("Smith, \"J\"\nline"), "price": .number(1.5), "qty": .number(-0.5),
                    "when": .text("2024-02-29"), "at": .text("09:30:05"), "span": .text("1h 5s"), "grade": .text("Low"),
                ]),
                Fixtures.row(["name, full": .text(" é "), "qty": .number(1e15), "grade": .text("a \"b\", c")]),
            ],
            now: 0
        )
        let expected = """
            "name, full",price,qty,when,at,span,grade
            "Smith, ""J""
            line",1.50,-0.5,2024-02-29,09:30:05,1h 5s,Low
             é ,,1000000000000000.0,,,,"a ""b"", c"

            """
        #expect(table.export(.csv).text == expected)
        #expect(table.export(.csv).rows == 2)
    }

    @Test func ndjsonSortsKeysNumericallyWithoutCase() throws {
        var table = try Table(
            name: "t",
            columns: [
                Column(key: "b", rules: try ColumnRules(type: .text)),
                Column(key: "A10", rules: try ColumnRules(type: .number)),
                Column(key: "a2", rules: try ColumnRules(type: .text)),
                Column(key: "Z/1", rules: try ColumnRules(type: .text)),
                Column(key: "größe", rules: try ColumnRules(type: .text)),
                Column(key: "span", rules: try ColumnRules(type: .duration)),
                Column(key: "when", rules: try ColumnRules(type: .date)),
            ]
        )
        _ = try table.add(
            [
                Fixtures.row([
                    "b": .text("tab\there \"q\" \\ /"), "A10": .number(3), "a2": .text("\u{1}\u{2028}😀"),
                    "span": .text("1h"), "when": .text("2024-01-02"),
                ])
            ],
            now: 0
        )
        let expected =
            #"{"a2":"\u0001"# + "\u{2028}😀" + #"","A10":3,"b":"tab\there \"q\" \\ /","größe":null,"span":3600,"#
            + #""when":"2024-01-02","Z/1":null}"# + "\n"
        #expect(table.export(.ndjson).text == expected)
    }

    // MARK: Chunks

    @Test(arguments: [DataFormat.csv, .ndjson])
    func chunksJoinToTheWholeTextAndEndAtRowEnds(format: DataFormat) throws {
        var random = SeededRandom(seed: 17)
        let table = try Self.nastyTable(rows: 700, sorted: true, random: &random)
        for selectedOnly in [false, true] {
            let whole = table.export(format, selectedOnly: selectedOnly)
            // Where each row ends, from chunks of one line each (the CSV header alone first).
            var rowEnds: [Int: Int] = [:]
            var offset = 0
            _ = table.export(format, selectedOnly: selectedOnly, chunkBytes: 1) { chunk, soFar in
                offset += chunk.count
                #expect(rowEnds.updateValue(soFar, forKey: offset) == nil)
            }
            #expect(rowEnds.count == whole.rows + (format == .csv ? 1 : 0))
            for chunkBytes in [-1, 0, 1, 100, 4096, 1 << 20] {
                var chunks: [[UInt8]] = []
                var joined: [UInt8] = []
                let rows = table.export(format, selectedOnly: selectedOnly, chunkBytes: chunkBytes) { chunk, soFar in
                    chunks.append(chunk)
                    joined += chunk
                    #expect(rowEnds[joined.count] == soFar, "a chunk ends at byte \(joined.count), not after a row")
                }
                #expect(rows == whole.rows)
                #expect(joined == Array(whole.text.utf8), "chunkBytes \(chunkBytes)")
                #expect(chunks.allSatisfy { $0.last == UInt8(ascii: "\n") })
                #expect(chunks.dropLast().allSatisfy { $0.count >= chunkBytes })
                if chunkBytes >= 1 << 20 { #expect(chunks.count == 1) }
            }
        }
    }

    @Test func chunksAreCutAfterTheLineThatFillsThem() throws {
        var table = try Table(name: "t", columns: [Column(key: "n", rules: try ColumnRules(type: .number))])
        _ = try table.add((0..<10).map { Fixtures.row(["n": .number(Double($0))]) }, now: 0)
        var seen: [(text: String, rows: Int)] = []
        let rows = table.export(.csv, chunkBytes: 6) { seen.append((String(decoding: $0, as: UTF8.self), $1)) }
        #expect(rows == 10)
        #expect(seen.map(\.text) == ["n\n0\n1\n", "2\n3\n4\n", "5\n6\n7\n", "8\n9\n"])
        #expect(seen.map(\.rows) == [2, 5, 8, 10])
    }

    @Test func anErrorFromEmitStopsTheExport() throws {
        struct Full: Error {}
        var table = try Table(name: "t", columns: [Column(key: "n", rules: try ColumnRules(type: .number))])
        _ = try table.add((0..<100).map { Fixtures.row(["n": .number(Double($0))]) }, now: 0)
        var calls = 0
        #expect(throws: Full.self) {
            try table.export(.ndjson, chunkBytes: 10) { _, _ in
                calls += 1
                if calls == 2 { throw Full() }
            }
        }
        #expect(calls == 2)
    }

    // MARK: Tables and values

    private static func expectSame(_ new: String, _ old: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard new != old else { return }
        let newLines = new.split(separator: "\n", omittingEmptySubsequences: false)
        let oldLines = old.split(separator: "\n", omittingEmptySubsequences: false)
        let common = min(newLines.count, oldLines.count)
        let line = (0..<common).first { newLines[$0] != oldLines[$0] } ?? common
        let newLine = line < newLines.count ? String(newLines[line]).debugDescription : "(none)"
        let oldLine = line < oldLines.count ? String(oldLines[line]).debugDescription : "(none)"
        Issue.record("differs at line \(line + 1):\n new \(newLine)\n old \(oldLine)", sourceLocation: sourceLocation)
    }

    private static func text(_ writer: ExportWriter) -> String {
        String(decoding: writer.bytes, as: UTF8.self)
    }

    /// Keys with commas, quotes, case and digits that sort numerically, and non-ASCII; one
    /// column of every type, numbers with and without `decimals`.
    private static func nastyTable(rows: Int, sorted: Bool, random: inout SeededRandom) throws -> Table {
        let columns = [
            Column(key: "name", rules: try ColumnRules(type: .text)),
            Column(key: "Note, \"quoted\"", rules: try ColumnRules(type: .text)),
            Column(key: "qty10", rules: try ColumnRules(type: .number)),
            Column(key: "qty2", rules: try ColumnRules(type: .number, decimals: 2)),
            Column(key: "Whole", rules: try ColumnRules(type: .number, decimals: 0)),
            Column(key: "received", rules: try ColumnRules(type: .date)),
            Column(key: "at", rules: try ColumnRules(type: .time)),
            Column(key: "lead", rules: try ColumnRules(type: .duration)),
            Column(
                key: "grade",
                rules: try ColumnRules(type: .picker, options: ["Low", "a,b", "say \"hi\"", "Ünïcode", "two\nlines"])
            ),
            Column(key: "größe/😀", rules: try ColumnRules(type: .image)),
            Column(key: "tab\tkey", rules: try ColumnRules(type: .text)),
            Column(key: "done", rules: try ColumnRules(type: .boolean)),
            Column(key: "stamp", rules: try ColumnRules(type: .datetime)),
        ]
        var table = try Table(name: "nasty", columns: columns)
        _ = try table.add(Array(repeating: RowInput(values: [:]), count: rows), now: 0)
        // Values straight into the stores: every representable value, not only valid input.
        for slot in 0..<UInt32(rows) {
            for (index, column) in columns.enumerated() {
                table.stores[index][slot] = randomValue(column.type, &random)
            }
        }
        if sorted {
            try table.sort(by: [SortKey(column: "grade"), SortKey(column: "qty10", descending: true)])
        }
        try table.select(.set, .ids((1...rows).filter { _ in random.next() % 3 == 0 }.map { .number(Int64($0)) }))
        return table
    }

    private static func randomValue(_ type: ColumnType, _ random: inout SeededRandom) -> CellValue {
        if random.next() % 5 == 0 { return .empty }
        switch type {
        case .text: return .text(randomText(&random))
        case .image: return .image(randomText(&random))
        case .number: return .number(randomNumber(&random))
        case .date:
            let days = random.next() % 2 == 0 ? Int32(random.next() % 40_000) : Int32(truncatingIfNeeded: random.next())
            return days == .min ? .empty : .date(days: days)
        case .time:
            let seconds =
                random.next() % 4 != 0 ? Int32(random.next() % 86_400) : Int32(truncatingIfNeeded: random.next())
            return seconds == .min ? .empty : .time(seconds: seconds)
        case .duration:
            let seconds = Int64(bitPattern: random.next()) >> (random.next() % 64)
            return seconds == .min ? .empty : .duration(seconds: seconds)
        case .picker: return .picker(option: Int32(random.next() % 7) - 1)
        case .boolean: return .boolean(random.next() % 2 == 0)
        case .datetime:
            // Milliseconds around now, and far before and after.
            let milliseconds = Int64(
                bitPattern: random.next() % 2 == 0 ? random.next() % 4_000_000_000_000 : random.next() >> 20
            )
            return .datetime(milliseconds: milliseconds)
        }
    }

    private static let textPieces = [
        "plain", "a,b", "say \"hi\"", "\"", ",", "two\nlines", "cr\rhere", "crlf\r\nthere", "\r\n", " lead", "trail ",
        "é", "e\u{301}", "日本語", "😀", "👨‍👩‍👧", "🇺🇸", "\"\u{301}", ",\u{301}", "\u{600}\"", "\u{600},", "\"\u{903}",
        "\"\u{FE0F}", "\n\u{301}", "\r\u{301}", "tab\t", "\u{0}", "\u{1}", "\u{8}\u{C}", "\u{1F}", "\u{7F}",
        "back\\slash",
        "a/b", "\u{2028}\u{2029}", "\u{FEFF}", "\u{85}", "x", "42", "-0", "1e5",
    ]

    private static func randomText(_ random: inout SeededRandom) -> String {
        (0..<(1 + random.next() % 3)).map { _ in textPieces[Int(random.next() % UInt64(textPieces.count))] }.joined()
    }

    private static let specialNumbers: [Double] = [
        0, -0.0, 1, -1, 3, 0.1, -0.1, 0.125, 2.5, -2.5, 1.005, 123.456, 1e15, 1e15 - 1, -1e15, 1e15 + 0.5,
        999_999_999_999_999.9, 0x1p53, 0x1p53 - 1, 0x1p53 + 2, -0x1p53, 1e16, 1e17, 1e21, 1e22, 1e100, 1e300,
        -1e300, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 1e-4, 1e-5, 1e-7, .leastNonzeroMagnitude,
        .leastNormalMagnitude,
        0.30000000000000004, 0x1p63, -0x1p63, 0x1p64,
    ]

    private static func randomNumber(_ random: inout SeededRandom) -> Double {
        switch random.next() % 5 {
        case 0: return specialNumbers[Int(random.next() % UInt64(specialNumbers.count))]
        case 1:
            let number = Double(bitPattern: random.next())
            return number.isFinite ? number : 1
        case 2: return Double(Int64(bitPattern: random.next()) % 10_000_000) / 1000
        case 3: return Double(Int64(bitPattern: random.next()) >> (random.next() % 64))
        default: return Double(Int64(bitPattern: random.next()) % 1_000_000) / 8
        }
    }
}

/// The export as it was written before it wrote its own bytes: `CSVWriter` into an
/// `OutputStream`, and `JSONSerialization` once per row.
private enum OldExport {
    /// A value as its display text, except the types added after this export: a boolean as
    /// `true` or `false` and an instant in ISO 8601 (UTC), as they load again.
    static func text(_ column: Column, _ value: CellValue) -> String {
        switch value {
        case .boolean(let value): value ? "true" : "false"
        case .datetime(let milliseconds): DateTimeSyntax.isoText(milliseconds)
        default: column.rules.displayText(value)
        }
    }

    static func csv(_ table: Table, selectedOnly: Bool) -> (text: String, rows: Int) {
        let stream = OutputStream(toMemory: ())
        stream.open()
        var rows = 0
        do {
            let writer = try CSVWriter(stream: stream)
            try writer.write(row: table.columns.map(\.key))
            var failure: (any Error)?
            table.forEachRow(selectedOnly: selectedOnly) { _, values in
                guard failure == nil else { return }
                do {
                    try writer.write(row: zip(table.columns, values).map { OldExport.text($0, $1) })
                    rows += 1
                } catch {
                    failure = error
                }
            }
            writer.stream.close()
        } catch {
            return ("", 0)
        }
        let data = stream.property(forKey: .dataWrittenToMemoryStreamKey) as? Data ?? Data()
        return (String(decoding: data, as: UTF8.self) + "\n", rows)
    }

    static func ndjson(_ table: Table, selectedOnly: Bool) -> (text: String, rows: Int) {
        var text = ""
        var rows = 0
        table.forEachRow(selectedOnly: selectedOnly) { _, values in
            var object: [String: Any] = [:]
            for (column, value) in zip(table.columns, values) {
                switch value {
                case .empty: object[column.key] = NSNull()
                case .number(let number): object[column.key] = number
                case .duration(let seconds): object[column.key] = seconds
                case .boolean(let value): object[column.key] = value
                default: object[column.key] = OldExport.text(column, value)
                }
            }
            if let line = try? JSONSerialization.data(
                withJSONObject: object,
                options: [.sortedKeys, .withoutEscapingSlashes]
            ) {
                text += String(decoding: line, as: UTF8.self)
                text += "\n"
                rows += 1
            }
        }
        return (text, rows)
    }

    /// One field as the old CSV export wrote it, as a row of its own.
    static func csvField(_ text: String) -> String {
        let stream = OutputStream(toMemory: ())
        stream.open()
        let writer = try! CSVWriter(stream: stream)
        try! writer.write(row: [text])
        writer.stream.close()
        let data = stream.property(forKey: .dataWrittenToMemoryStreamKey) as? Data ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// One value as the old NDJSON export wrote it.
    static func jsonValue(_ value: Any) -> String {
        let line = try! JSONSerialization.data(
            withJSONObject: ["k": value],
            options: [.sortedKeys, .withoutEscapingSlashes]
        )
        return String(String(decoding: line, as: UTF8.self).dropFirst(5).dropLast())
    }
}
