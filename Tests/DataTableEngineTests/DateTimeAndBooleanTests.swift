import Testing

@testable import DataTableEngine

/// `datetime` (an instant, shown in a zone) and `boolean` (a checkbox) columns: what they take,
/// what they show, how they sort, load and export.
@Suite struct DateTimeAndBooleanTests {
    static let berlin = DisplayZone(named: "Europe/Berlin")!

    @Test(arguments: [
        ("2024-03-15T14:30:00Z", "2024-03-15T14:30:00Z"),
        ("2024-03-15T14:30Z", "2024-03-15T14:30:00Z"),
        ("2024-03-15 14:30:00+01:00", "2024-03-15T13:30:00Z"),
        ("2024-03-15t14:30:00-0530", "2024-03-15T20:00:00Z"),
        ("2024-03-15T14:30:00+02", "2024-03-15T12:30:00Z"),
        ("2024-03-15T14:30:00.25Z", "2024-03-15T14:30:00.250Z"),
        ("2024-03-15T14:30:00,123456Z", "2024-03-15T14:30:00.123Z"),
        ("1969-12-31T23:59:59Z", "1969-12-31T23:59:59Z"),
        ("  2024-02-29T00:00:00Z ", "2024-02-29T00:00:00Z"),
    ])
    func anInstantReadsWithItsOffset(typed: String, iso: String) throws {
        let milliseconds = try DateTimeSyntax.instant(.text(typed), zone: .utc)
        #expect(DateTimeSyntax.isoText(milliseconds) == iso)
    }

    @Test(arguments: [
        "2024-02-30T10:00:00Z", "2024-03-15", "2024-03-15T25:00:00Z", "2024-03-15T14:30:00+19:00",
        "2024-03-15T14:30:00Zulu", "2024-03-15T14:30:00.Z", "yesterday", "",
    ])
    func notAnInstantIsRefused(typed: String) {
        #expect(throws: ValidationFailure.self) { try DateTimeSyntax.instant(.text(typed), zone: .utc) }
    }

    @Test func aZoneShowsTheInstantOnItsClockAndReadsTimesWithoutAnOffset() throws {
        // Berlin is UTC+1 in winter and UTC+2 in summer.
        let winter = try DateTimeSyntax.instant(.text("2024-01-10T12:00:00Z"), zone: .utc)
        let summer = try DateTimeSyntax.instant(.text("2024-07-10T12:00:00Z"), zone: .utc)
        #expect(DateTimeSyntax.text(winter, zone: Self.berlin) == "2024-01-10 13:00:00")
        #expect(DateTimeSyntax.text(summer, zone: Self.berlin) == "2024-07-10 14:00:00")
        #expect(try DateTimeSyntax.instant(.text("2024-07-10 14:00"), zone: Self.berlin) == summer)
        #expect(DateTimeSyntax.text(winter, zone: DisplayZone(named: "-05:30")!) == "2024-01-10 06:30:00")
        #expect(try DateTimeSyntax.instant(.number(1_700_000_000), zone: .utc) == 1_700_000_000_000)
        #expect(DisplayZone(named: "+02:00")?.name == "+02:00" && DisplayZone(named: "Z") == .utc)
        #expect(DisplayZone(named: "Mars/Olympus") == nil && DisplayZone(named: "+25:00") == nil)
    }

    @Test func booleansTakeTheWordsPeopleUse() throws {
        for (input, expected) in [
            (CellInput.boolean(true), true), (.text("Yes"), true), (.text(" on "), true), (.number(1), true),
            (.text("FALSE"), false), (.text("no"), false), (.number(0), false), (.text("0"), false),
        ] {
            #expect(try DateTimeSyntax.boolean(input) == expected, "\(input)")
        }
        for input in [CellInput.text("maybe"), .number(2), .text("")] {
            #expect(throws: ValidationFailure("Enter true or false.")) { try DateTimeSyntax.boolean(input) }
        }
        let text = try ColumnRules(type: .text)
        #expect(throws: ValidationFailure.self) { try text.parse(.boolean(true)) }
    }

    static func table() throws -> Table {
        var table = try Table(
            name: "log",
            columns: [
                Column(
                    key: "at",
                    rules: try ColumnRules(
                        type: .datetime,
                        minimum: .text("2000-01-01T00:00:00Z"),
                        style: .init(zone: berlin)
                    )
                ),
                Column(key: "ok", rules: try ColumnRules(type: .boolean)),
            ]
        )
        _ = try table.add(
            [
                RowInput(values: ["at": .text("2024-03-15T14:30:00Z"), "ok": .boolean(true)]),
                RowInput(values: ["at": .text("2024-03-15T09:00:00-05:00"), "ok": .text("no")]),
                RowInput(values: ["at": .null, "ok": .null]),
            ],
            now: 0
        )
        return table
    }

    @Test func theySortByInstantAndFalseFirst() throws {
        var table = try Self.table()
        try table.sort(by: [SortKey(column: "at")])
        #expect(table.rows(from: 0, count: 3).map(\.id) == [.number(3), .number(2), .number(1)])
        try table.sort(by: [SortKey(column: "ok", descending: true)])
        #expect(table.rows(from: 0, count: 3).map(\.id) == [.number(1), .number(2), .number(3)])
        #expect(table.columns[0].rules.displayText(table.rows(from: 0, count: 1)[0].values[0]) == "2024-03-15 15:30:00")
        #expect(throws: TableError.self) {
            try table.edit([CellEdit(id: .number(1), column: "at", input: .text("1999-12-31T23:00:00Z"))])
        }
    }

    @Test func anExportLoadsAgainAsTheSameInstants() throws {
        let table = try Self.table()
        let csv = table.export(.csv, selectedOnly: false).text
        #expect(csv == "at,ok\n2024-03-15T14:30:00Z,true\n2024-03-15T14:00:00Z,false\n,\n")
        let loaded = try TableLoader.parse(csv, format: .csv, columns: table.columns)
        var again = try Table(name: "again", columns: table.columns)
        _ = try again.append(loaded)
        #expect(again.rows(from: 0, count: 3).map(\.values) == table.rows(from: 0, count: 3).map(\.values))
        // Without columns, a load infers both types; yes and no stay text, which an export
        // would write back as true and false.
        let inferred = try TableLoader.parse("at,ok\n2024-03-15T14:30:00+01:00,true\n", format: .csv, columns: nil)
        #expect(inferred.columns.map(\.type) == [.datetime, .boolean])
        let words = try TableLoader.parse("ok\nyes\nno\n", format: .csv, columns: nil)
        #expect(words.columns.map(\.type) == [.text])
        let ndjson = try TableLoader.parse(#"{"ok":true}"# + "\n", format: .ndjson, columns: table.columns)
        var fromJSON = try Table(name: "json", columns: table.columns)
        _ = try fromJSON.append(ndjson)
        #expect(fromJSON.rows(from: 0, count: 1)[0].values == [.empty, .boolean(true)])
    }

    @Test func anImageKeepsThem() throws {
        let table = try Self.table()
        let restored = try Table(
            restoring: table.imageBody()[...],
            name: table.name,
            columns: table.columns,
            key: nil,
            readOnly: false,
            selectionMode: .multiple,
            sortKeys: [],
            version: table.version
        )
        #expect(restored.rows(from: 0, count: 3).map(\.values) == table.rows(from: 0, count: 3).map(\.values))
    }
}
