import Foundation
import Testing

/// `layout` over the real socket, on the demo table (item, rack, qty, weight, received, status,
/// lead, notes; multiple selection; item sticky and flexible; notes wraps).
@Suite struct LayoutMethodTests {
    let daemon: TestDaemon

    init() throws { daemon = try TestDaemon(arguments: ["--demo"]) }

    func layout(_ params: String) throws -> [String: Any] {
        let reply = try object(try daemon.request(#"{"method":"layout","params":\#(params)}"#))
        return try #require(reply["result"] as? [String: Any], "\(reply)")
    }

    func failure(_ params: String) throws -> (kind: String?, field: String?) {
        let reply = try object(try daemon.request(#"{"method":"layout","params":\#(params)}"#))
        let data = (reply["error"] as? [String: Any])?["data"] as? [String: Any]
        return (data?["kind"] as? String, data?["field"] as? String)
    }

    static func columns(_ plan: [String: Any]) -> [[String: Any]] { plan["columns"] as? [[String: Any]] ?? [] }

    /// 1024 regular, 1024 scrolling sideways, 375 compact: three different plans.
    @Test func theDemoTableHasThreePlans() throws {
        let fit = try layout(#"{"table":"stock","width":1024}"#)
        let scroll = try layout(#"{"table":"stock","width":1024,"horizontalScroll":true}"#)
        let compact = try layout(#"{"table":"stock","width":375,"sizeClass":"compact"}"#)

        // Fit: everything inside 1024, after the 44-pt checkbox; notes (at least 256 when
        // truncated) does not fit after the other columns and is omitted; item fills.
        #expect(fit["mode"] as? String == "table")
        #expect(fit["contentWidth"] as? Int == 1024)
        let fitColumns = Self.columns(fit)
        let shown = fitColumns.filter { $0["omitted"] as? Bool == false }
        #expect(fitColumns.first { $0["key"] as? String == "notes" }?["omitted"] as? Bool == true)
        #expect(shown.first?["x"] as? Int == 44)
        let edge = shown.map { ($0["x"] as! Int) + ($0["width"] as! Int) }.max()
        #expect(edge == 1024)
        #expect(shown.allSatisfy { ($0["width"] as! Int) <= 512 || $0["key"] as? String == "item" })
        #expect((fit["accessories"] as? [String: Any])?["left"] as? [String: Any] != nil)
        #expect(fitColumns.first { $0["key"] as? String == "qty" }?["align"] as? String == "trailing")
        #expect(fit["sticky"] == nil)

        // Scroll: natural widths, nothing omitted, wider than the container, item sticky.
        let scrollColumns = Self.columns(scroll)
        #expect(scrollColumns.allSatisfy { $0["omitted"] as? Bool == false })
        #expect((scroll["contentWidth"] as? Int ?? 0) > 1024)
        #expect((scroll["sticky"] as? [String: Any])?["column"] as? String == "item")

        // Compact: a list report; the first three text columns are headline, subheadline,
        // footnote.
        #expect(compact["mode"] as? String == "list")
        let bindings = (compact["bindings"] as? [[String: Any]] ?? []).map { "\($0["binding"]!)=\($0["column"]!)" }
        #expect(Array(bindings.prefix(3)) == ["headline=item", "subheadline=rack", "footnote=qty"])
        #expect(bindings.count <= 6)
        // Across the row as FUIObjectView: the status area is 30% of 375 (112) ending 12 from
        // the trailing edge; the text lines take 12 to 12 before it (227).
        let places = (compact["columns"] as? [[String: Any]] ?? []).compactMap { column -> String? in
            guard let x = column["x"] as? Int else { return nil }
            return "\(column["key"]!) \(x)+\(column["width"]!)"
        }
        #expect(places == ["item 12+227", "rack 12+227", "qty 12+227", "weight 251+112", "received 251+112"])

        let data = ((fit["fonts"] as? [String: Any])?["data"] as? [String: Any])
        #expect(data?["family"] as? String == "DejaVu Sans")
        #expect(((fit["rows"] as? [String: Any])?["height"] as? Int) == 50)
    }

    /// In terminal cells: 1 cell between columns, no padding, one-line header and rows.
    @Test func cellLayoutsForTerminals() throws {
        let plan = try layout(#"{"table":"stock","width":80,"unit":"cell"}"#)
        #expect(plan["unit"] as? String == "cell")
        #expect(plan["fonts"] == nil)
        let shown = Self.columns(plan).filter { $0["omitted"] as? Bool == false }
        for (left, right) in zip(shown, shown.dropFirst()) {
            #expect((left["x"] as! Int) + (left["width"] as! Int) + 1 == right["x"] as! Int)
        }
        #expect((plan["header"] as? [String: Any])?["height"] as? Int == 1)
    }

    /// An edit that makes the widest item wider moves the columns after it.
    @Test func aLayoutAfterAnEditSeesTheNewWidestContent() throws {
        // A 10-cell container scrolling sideways: every column at its natural width.
        let params = #"{"table":"stock","width":10,"horizontalScroll":true,"unit":"cell"}"#
        let before = Self.columns(try layout(params))[0]["width"] as? Int ?? 0
        let long = String(repeating: "W", count: 40)
        _ = try daemon.request(
            #"{"method":"edit","params":{"table":"stock","id":1,"column":"item","value":"\#(long)"}}"#
        )
        #expect(Self.columns(try layout(params))[0]["width"] as? Int == 40)
        #expect(before < 40)
    }

    @Test func badParamsAreInvalidParamsNamingTheField() throws {
        #expect(try failure(#"{"table":"stock","width":0}"#) == ("invalid_params", "params.width"))
        #expect(try failure(#"{"table":"stock","width":1024,"unit":"mm"}"#) == ("invalid_params", "params.unit"))
        #expect(
            try failure(#"{"table":"stock","width":1024,"sizeClass":"huge"}"#) == ("invalid_params", "params.sizeClass")
        )
        #expect(
            try failure(#"{"table":"stock","width":1024,"font":{"family":"No Such Font 9"}}"#)
                == ("invalid_params", "params.font.family")
        )
        #expect(
            try failure(#"{"table":"stock","width":1024,"font":{"file":"/etc/hostname"}}"#)
                == ("invalid_params", "params.font.file")
        )
        #expect(
            try failure(#"{"table":"stock","width":1024,"columns":{"rack":{"width":-1}}}"#)
                == ("invalid_params", "params.columns.rack.width")
        )
        #expect(
            try failure(#"{"table":"stock","width":1024,"columns":{"rack":{"binding":"detailImage"}}}"#)
                == ("invalid_params", "params.columns.rack.binding")
        )
        #expect(
            try failure(#"{"table":"stock","width":1024,"padding":{"cell":-3}}"#)
                == ("invalid_params", "params.padding.cell")
        )
        #expect(try failure(#"{"table":"stock","width":1024,"columns":{"nope":{"width":5}}}"#).kind == "no_such_column")
        #expect(
            try failure(#"{"table":"stock","width":1024,"leftAccessory":"chevron"}"#)
                == ("invalid_params", "params.leftAccessory")
        )
        #expect(try failure(#"{"table":"nope","width":1024}"#).kind == "no_such_table")
        #expect(try failure(#"{"table":"stock"}"#).kind == "invalid_params")
    }
}
