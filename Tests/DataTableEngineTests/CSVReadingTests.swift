import CSV
import TestSupport
import Testing

@testable import DataTableEngine

/// The CSV reader splits records into fields and reads numbers and dates straight from their
/// bytes: the fields must be what a CSV library reads from well-formed text, and each value
/// what the general reading of its text gives.
@Suite struct CSVReadingTests {
    /// Random records of awkward fields (commas, quotes, line breaks, spaces, accents, CJK,
    /// empty ones), written with quotes where they are needed and sometimes where they are not,
    /// with LF or CRLF line ends: split as CSV.swift splits them.
    @Test(arguments: [UInt64(1), 2, 3])
    func fieldsAreTheOnesACSVLibraryReads(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let pieces = ["a", "Bolt", ",", "\"", "\n", "\r\n", " ", "é", "ウィ", "1.5", "-", "", "\"\""]
        for _ in 0..<200 {
            let width = Int.random(in: 1...5, using: &random)
            let records = (0..<Int.random(in: 1...6, using: &random)).map { _ in
                (0..<width).map { _ in
                    (0..<Int.random(in: 0...4, using: &random)).map { _ in pieces.randomElement(using: &random)! }
                        .joined()
                }
            }
            let lineEnd = Bool.random(using: &random) ? "\n" : "\r\n"
            let text = records.map { fields in
                fields.map { field in
                    let needsQuotes = field.unicodeScalars.contains { ",\"\n\r".unicodeScalars.contains($0) }
                    guard needsQuotes || (!field.isEmpty && Int.random(in: 0..<4, using: &random) == 0) else {
                        return field
                    }
                    return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                }.joined(separator: ",")
            }.joined(separator: lineEnd)
            let bytes = Array(text.utf8)
            let index = bytes.withUnsafeBufferPointer { RecordIndex($0) }
            let ours = bytes.withUnsafeBufferPointer { CSVFields.strings($0, index.ranges) }
            // Blank records are left out by the index; the library reads them as one empty field.
            let theirs = try Array(CSVReader(string: text)).filter { $0 != [""] }
            let written = records.filter { $0 != [""] }
            #expect(ours == theirs, "\(text.debugDescription)")
            #expect(ours == written, "\(text.debugDescription)")
        }
    }

    /// A load reads its records a block at a time: awkward fields (escaped quotes kept in the
    /// block's scratch, line breaks, spaces) in records across many blocks are the ones the
    /// library reads, and rows with a field too many are named by their lines, whichever block
    /// they are in.
    @Test func fieldsOfManyBlocksAreTheOnesACSVLibraryReads() throws {
        var random = SeededRandom(seed: 7)
        let pieces = ["a", "Bolt", ",", "\"", "\n", " ", "é", "ウィ", "1.5", "", "\"\""]
        let records = (0..<(CSVInput.blockSize * 5 + 3)).map { row in
            [String(row)]
                + (0..<2).map { _ in
                    (0..<Int.random(in: 0...4, using: &random)).map { _ in pieces.randomElement(using: &random)! }
                        .joined()
                }
        }
        let text =
            "n,b,c\n"
            + records.map { fields in
                fields.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: ",")
            }.joined(separator: "\n")
        let columns = try ["n", "b", "c"].map { Column(key: $0, rules: try ColumnRules(type: .text)) }
        let loaded = try TableLoader.parse(text, format: .csv, columns: columns)
        var table = try Table(name: "t", columns: columns)
        _ = try table.append(loaded)
        let theirs = try Array(CSVReader(string: text, hasHeaderRow: true))
        #expect(theirs == records)
        for (index, key) in ["n", "b", "c"].enumerated() {
            #expect(table.column(key) == theirs.map { $0[index] }, "\(key)")
        }

        let long = Set(stride(from: 3, to: CSVInput.blockSize * 4, by: 101))
        let plain = (0..<(CSVInput.blockSize * 4)).map { row in
            long.contains(row) ? "\(row),x,y,z" : "\(row),x,y"
        }
        do {
            _ = try TableLoader.parse("n,b,c\n" + plain.joined(separator: "\n"), format: .csv, columns: columns)
            Issue.record("a row with a field too many was loaded")
        } catch {
            guard case .invalidValues(let problems) = error else { throw error }
            #expect(problems.map(\.line) == long.sorted().map { $0 + 2 })
        }
    }

    /// Commas are found eight bytes at a time: fields of every length up to three words, of
    /// bytes next to the comma's value (`+`, `-`, `,` with its high bit set inside `¬`), split
    /// where the commas are.
    @Test func commasAreFoundWhateverTheFieldsLengthsAndNeighbours() {
        let fillers = ["+", "-", "¬", "a", ".", "\u{1}"]
        for filler in fillers {
            for first in 0...24 {
                for second in [0, 1, 7, 8, 9, 17] {
                    let fields = [
                        String(repeating: filler, count: first), String(repeating: "-", count: second), "x",
                    ]
                    let bytes = Array(fields.joined(separator: ",").utf8)
                    let split = bytes.withUnsafeBufferPointer { CSVFields.strings($0, [0..<bytes.count]) }
                    #expect(split == [fields], "\(filler) × \(first), \(second)")
                }
            }
        }
    }

    /// A block's fields are stored a column at a time, yet the problems reported are the first
    /// ones by line, and within a line from left to right, then the required column the header
    /// leaves out: as if every row were read in turn.
    @Test func theFirstProblemsByLineAreReportedWhateverTheirColumns() throws {
        let columns = [
            Column(key: "n", rules: try ColumnRules(type: .number)),
            Column(key: "day", rules: try ColumnRules(type: .date)),
            Column(key: "item", rules: try ColumnRules(type: .text, required: true)),
            Column(key: "note", rules: try ColumnRules(type: .text, required: true)),
        ]
        var rows: [String] = []
        var expected: [(line: Int, column: String)] = []
        for row in 0..<(CSVInput.blockSize + 40) {
            let line = row + 2
            let badNumber = row % 3 != 1
            let badDay = row % 2 == 0
            let noItem = row % 5 == 0
            if row == 7 {
                rows.append("1,2024-01-01")
                expected.append((line, ""))
                continue
            }
            rows.append("\(badNumber ? "x\(row)" : "\(row)"),\(badDay ? "soon" : "2024-01-02"),\(noItem ? "" : "Bolt")")
            if badNumber { expected.append((line, "n")) }
            if badDay { expected.append((line, "day")) }
            if noItem { expected.append((line, "item")) }
            expected.append((line, "note"))
        }
        do {
            _ = try TableLoader.parse("n,day,item\n" + rows.joined(separator: "\n"), format: .csv, columns: columns)
            Issue.record("rows with bad values were loaded")
        } catch {
            guard case .invalidValues(let problems) = error else { throw error }
            #expect(problems.count == Table.problemLimit)
            let found = problems.map { "\($0.line ?? 0) \($0.column)" }
            #expect(found == expected.prefix(Table.problemLimit).map { "\($0.line) \($0.column)" })
        }
    }

    /// Read in any number of pieces (cut anywhere: in a quoted field, between CR and LF), the
    /// records, their lines and an unclosed quote's line are those of the input read as one.
    @Test(arguments: [21, 22, 23])
    func recordsReadInPiecesAreThoseReadAsOne(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let alphabet = Array("ab,\"\n\r ")
        for _ in 0..<300 {
            let length = Int.random(in: 0...200, using: &random)
            let bytes = Array(String((0..<length).map { _ in alphabet.randomElement(using: &random)! }).utf8)
            bytes.withUnsafeBufferPointer { bytes in
                let whole = RecordIndex(bytes, pieces: 1)
                for pieces in [2, 3, 5, 8, 13] {
                    let cut = RecordIndex(bytes, pieces: pieces)
                    #expect(cut.ranges == whole.ranges, "\(pieces) pieces of \(Array(bytes))")
                    #expect(cut.lines == whole.lines, "\(pieces) pieces of \(Array(bytes))")
                    #expect(cut.unclosedQuoteLine == whole.unclosedQuoteLine, "\(pieces) pieces of \(Array(bytes))")
                }
            }
        }
        // An input long enough to be read in pieces by default.
        let text = (0..<500_000).map { "\"r\($0)\n\",\($0)" }.joined(separator: "\r\n")
        let bytes = Array(text.utf8)
        bytes.withUnsafeBufferPointer { bytes in
            let index = RecordIndex(bytes)
            #expect(index.ranges == RecordIndex(bytes, pieces: 1).ranges)
            #expect(index.lines.count == 500_000 && index.lines.last == 999_999)
        }
    }

    /// Text after a closing quote is kept, as is a quote inside a field that does not start
    /// with one; a quote never closed keeps the rest of the record.
    @Test func quotesOutOfPlaceKeepEveryCharacter() throws {
        func split(_ record: String) -> [String] {
            let bytes = Array(record.utf8)
            return bytes.withUnsafeBufferPointer { CSVFields.strings($0, [0..<bytes.count]) }[0]
        }
        #expect(split("\"ab\"cd,e") == ["abcd", "e"])
        #expect(split("5\" nail,x") == ["5\" nail", "x"])
        #expect(split("\"a\"\"b\"c\"d\",e") == ["a\"bc\"d\"", "e"])
        #expect(split("x,\"open") == ["x", "open"])
        #expect(split("x,\r") == ["x", ""])
        #expect(split(",,") == ["", "", ""])
    }

    /// Number-like text of every shape: read from bytes only in the form a number column writes
    /// back (with up to 22 decimal places), to the same double and decimal places as the
    /// general reading.
    @Test func numbersReadFromBytesMatchTheGeneralReading() {
        var random = SeededRandom(seed: 7)
        let alphabet = Array("0123456789-.e+ ")
        var samples = [
            "0", "-0", "-0.00", "0.1", "007", "1.", ".5", "123456789012345", "1234567890123456",
            "0.000000000000000000001", "0.0000000000000000000000001", "9007199254740993",
            "-12.50", "99999999999999.9", "1e3", "", "-",
        ]
        for _ in 0..<20_000 {
            let length = Int.random(in: 1...18, using: &random)
            var text = String(
                (0..<length).map { _ in
                    Int.random(in: 0..<10, using: &random) < 8
                        ? alphabet[Int.random(in: 0..<10, using: &random)] : alphabet.randomElement(using: &random)!
                }
            )
            if Bool.random(using: &random) { text = String(text.drop { $0 == "0" }) }
            samples.append(text)
        }
        for text in samples {
            let fast = Array(text.utf8).withUnsafeBufferPointer { FieldBytes.exactNumber($0) }
            if NumberText.isWrittenExactly(text), let value = NumberText.parse(text) {
                // More than 22 decimal places are left to the general reading.
                guard ChunkResult.decimalPlaces(text) <= 22 else {
                    #expect(fast == nil, "\(text)")
                    continue
                }
                #expect(fast?.value.bitPattern == value.bitPattern, "\(text)")
                #expect(fast?.places == ChunkResult.decimalPlaces(text), "\(text)")
            } else {
                #expect(fast == nil, "\(text)")
            }
        }
    }

    /// Duration-like text: read from bytes only as a duration column shows it (`1h 30m`), to the
    /// seconds the general reading gives; anything else is left to the general reading.
    @Test func durationsReadFromBytesMatchTheGeneralReading() throws {
        var random = SeededRandom(seed: 13)
        let rules = try ColumnRules(type: .duration)
        var samples = [
            "0m", "0s", "0h", "1h 30m", "1h30m", "90m", "1h 0m", "1h  30m", " 1h", "1h ", "01h", "45s",
            "2562047788015215h 30m 7s", "2501999792983h 36m 31s", "2501999792983h 36m 32s", "1d", "1H", "h", "12",
            "1h 30m 5s", "1m 5s", "1s 1m", "PT1H", "99999999999999999h",
        ]
        let alphabet = Array("0123456789hms d")
        for _ in 0..<20_000 {
            let length = Int.random(in: 1...12, using: &random)
            samples.append(String((0..<length).map { _ in alphabet.randomElement(using: &random)! }))
            let hours = Int.random(in: 0...30, using: &random)
            let minutes = Int.random(in: 0...70, using: &random)
            let seconds = Int.random(in: 0...70, using: &random)
            samples.append(
                ["\(hours)h", "\(minutes)m", "\(seconds)s"].filter { _ in Bool.random(using: &random) }
                    .joined(separator: " ")
            )
        }
        var read = 0
        for text in samples {
            let fast = Array(text.utf8).withUnsafeBufferPointer { FieldBytes.duration($0) }
            if case .duration(let seconds)? = try? rules.parse(.text(text)), ValueSyntax.durationText(seconds) == text {
                #expect(fast == seconds, "\(text)")
                read += 1
            } else {
                #expect(fast == nil, "\(text)")
            }
        }
        #expect(read > 1_000)
    }

    /// Whole seconds (`5400`), read from bytes for a given duration column: every text taken is
    /// taken to the seconds the general reading gives, and what is not is left to it.
    @Test func secondsReadFromBytesMatchTheGeneralReading() throws {
        let rules = try ColumnRules(type: .duration)
        var random = SeededRandom(seed: 13)
        var samples = [
            "0", "00", "7", "5400", "+5", "-5", " 5", "5 ", "1e3", "5.0", "", "9223372036854775807",
            "9999999999999999", "99999999999999999", String(ValueSyntax.longestDuration),
            String(ValueSyntax.longestDuration + 1), "1h 30m", "90m",
        ]
        for _ in 0..<20_000 {
            let length = Int.random(in: 1...18, using: &random)
            samples.append(String((0..<length).map { _ in "0123456789".randomElement(using: &random)! }))
        }
        var read = 0
        for text in samples {
            let fast = Array(text.utf8).withUnsafeBufferPointer { FieldBytes.durationOrSeconds($0) }
            guard let fast else { continue }
            guard case .duration(let seconds)? = try? rules.parse(.text(text)) else {
                Issue.record("\(text) was read from its bytes but the general reading refuses it")
                continue
            }
            #expect(fast == seconds, "\(text)")
            read += 1
        }
        #expect(read > 10_000)
    }

    /// Date-like text: read from bytes only as `YYYY-MM-DD`, to the day the general reading gives.
    @Test func datesReadFromBytesMatchTheGeneralReading() {
        var random = SeededRandom(seed: 11)
        var samples = [
            "2024-02-29", "2023-02-29", "0000-01-01", "9999-12-31", "2024-13-01", "2024-1-01",
            "2024/01/01", "20240-01-01", " 2024-01-01", "2024-00-10", "2024-04-31",
        ]
        for _ in 0..<20_000 {
            let year = Int.random(in: 0...9999, using: &random)
            let month = Int.random(in: 0...13, using: &random)
            let day = Int.random(in: 0...32, using: &random)
            var text = String(year).leftPadded(4) + "-" + String(month).leftPadded(2) + "-" + String(day).leftPadded(2)
            if Int.random(in: 0..<10, using: &random) == 0 { text = String(text.shuffled(using: &random)) }
            samples.append(text)
        }
        for text in samples {
            let fast = Array(text.utf8).withUnsafeBufferPointer { FieldBytes.isoDate($0) }
            let general = try? ValueSyntax.date(.text(text))
            if text.utf8.count == 10, let general {
                #expect(fast == general, "\(text)")
                #expect(ValueSyntax.dateText(general) == text, "\(text)")
            } else {
                #expect(fast == nil, "\(text)")
            }
        }
    }

    /// Columns whose rules the direct readings do not cover (decimals, bounds, a pattern, a
    /// length, a required value) still refuse what those rules refuse, by line.
    @Test func rulesStillApplyToEveryField() throws {
        let columns = [
            Column(key: "qty", rules: try ColumnRules(type: .number, required: true, decimals: 1)),
            Column(key: "code", rules: try ColumnRules(type: .text, maxLength: 3)),
            Column(key: "day", rules: try ColumnRules(type: .date, minimum: CellInput.text("2024-01-01"))),
        ]
        let text = "qty,code,day\n1.5,abc,2024-01-02\n1.25,abc,2024-01-02\n,abcd,2023-12-31\n7,ab,2024-03-01\n"
        do {
            _ = try TableLoader.parse(text, format: .csv, columns: columns)
            Issue.record("loaded rows its columns' rules refuse")
        } catch {
            guard case .invalidValues(let problems) = error else { throw error }
            #expect(problems.map(\.line) == [3, 4, 4, 4])
            #expect(problems.map(\.column) == ["qty", "qty", "code", "day"])
        }
        let good = try TableLoader.parse("qty,code,day\n1.5,abc,2024-01-02\n7,,\n", format: .csv, columns: columns)
        var table = try Table(name: "t", columns: good.columns)
        _ = try table.append(good)
        #expect(table.column("qty") == ["1.5", "7.0"])
        #expect(table.column("day") == ["2024-01-02", ""])
    }

    /// Text of several pieces (lines of accents and CJK) is valid; one bad byte anywhere, or a
    /// sequence cut short at the end, is not.
    @Test func utf8IsCheckedInPiecesAsAWhole() {
        let line = Array("ウィジェット é, 12\n".utf8)
        var text: [UInt8] = []
        while text.count < 3 * UTF8Check.pieceSize { text += line }
        #expect(UTF8Check.isValid(text))
        for place in [0, UTF8Check.pieceSize + 1, text.count - 2] {
            var broken = text
            broken[place] = 0xFF
            #expect(!UTF8Check.isValid(broken), "byte \(place)")
        }
        #expect(!UTF8Check.isValid(text + [0xE3, 0x82]))
        #expect(UTF8Check.isValid([]))
    }

    /// Every way a sequence can be ill-formed is caught, wherever it lies among ASCII (the
    /// check passes over ASCII eight bytes at a time), as the standard library judges it.
    @Test(
        arguments: [
            [0x80], [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
            [0xF5, 0x80, 0x80, 0x80], [0xE3, 0x82, 0x41], [0xE3, 0x82], [0xC3], [0xFE], [0xC3, 0xA9, 0xA9],
        ] as [[UInt8]]
    )
    func illFormedUTF8IsRefusedAnywhere(_ sequence: [UInt8]) {
        let ascii = Array("Widget, 12\n".utf8)
        for before in 0..<17 {
            let text =
                Array(ascii.prefix(before % ascii.count)) + Array(repeating: 0x61, count: before) + sequence + ascii
            #expect(!UTF8Check.isValid(text), "\(sequence) after \(before % ascii.count + before) bytes")
            #expect(String(validating: text, as: UTF8.self) == nil)
        }
        let good = Array("aé日本語😀 b\u{10FFFF}".utf8)
        for before in 0..<17 {
            #expect(UTF8Check.isValid(Array(repeating: 0x61, count: before) + good + ascii + good))
        }
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
