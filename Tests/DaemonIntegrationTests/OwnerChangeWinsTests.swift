import Foundation
import Glibc
import Testing

/// The owner's change wins: another connection's view never holds up an `alter`. Views that
/// filter or group by a dropped column lose that part and are told in their next reply. Root
/// and `nobody`, each on a connection of its own.
@Suite(
    .enabled(
        if: getuid() == 0 && which("runuser") != nil && which("socat") != nil && getpwnam("nobody") != nil,
        "needs root, runuser, socat and a nobody user"
    ),
    .serialized
)
struct OwnerChangeWinsTests {
    static func line(_ method: String, _ params: String) -> String {
        #"{"id":1,"method":"\#(method)","params":\#(params)}"#
    }

    static func result(_ reply: String?) throws -> [String: Any] {
        try #require(try object(reply)["result"] as? [String: Any], "\(reply ?? "no reply")")
    }

    /// A daemon run as root, connections of root and of `nobody`, and root's 0644 table
    /// `vault` (item, secret, rack) of three rows.
    static func vault() throws -> (TestDaemon, UserClient, UserClient) {
        let daemon = try FileAccessTests.rootDaemon()
        let root = try UserClient(as: "root", socket: daemon.socketPath)
        let nobody = try UserClient(as: "nobody", socket: daemon.socketPath)
        let created = root.request(
            line(
                "create",
                #"{"table":"vault","mode":"0644","columns":[{"key":"item"},{"key":"secret"},{"key":"rack"}],"rows":[{"item":"Bolt","secret":"x","rack":"A1"},{"item":"Nut","secret":"y","rack":"A1"},{"item":"Gear","secret":"x","rack":"B2"}]}"#
            )
        )
        #expect(try errorKind(created) == nil, "\(created ?? "")")
        return (daemon, root, nobody)
    }

    static let scroll = line("scroll", #"{"table":"vault","unit":"cell","viewport":{"width":60,"height":10}}"#)

    /// The reported sequence: `nobody` filters root's 0644 table by `secret`; root's `alter`
    /// dropping `secret` goes through, and `nobody`'s next scroll says its filter lost the
    /// column and shows every row.
    @Test(.tags(.slow)) func anAlterDroppingAColumnAnotherViewFiltersByGoesThrough() throws {
        let (daemon, root, nobody) = try Self.vault()
        defer { withExtendedLifetime(daemon) {} }

        let filtered = try Self.result(
            nobody.request(
                Self.line("filter", #"{"table":"vault","where":[{"column":"secret","op":"=","value":"x"}]}"#)
            )
        )
        #expect(filtered["shown"] as? Int == 2)
        #expect(try Self.result(nobody.request(Self.scroll))["shown"] as? Int == 2)
        #expect(try errorKind(nobody.request(Self.line("subscribe", #"{"table":"vault","events":["schema"]}"#))) == nil)

        let altered = root.request(Self.line("alter", #"{"table":"vault","drop":["secret"]}"#))
        #expect(try errorKind(altered) == nil, "\(altered ?? "")")
        #expect(try Self.result(altered)["columns"] as? [String] == ["item", "rack"])

        // Told by the schema event, then by the next scroll, which shows every row.
        let event = try object(nobody.readLine())
        let params = try #require(event["params"] as? [String: Any], "\(event)")
        #expect(params["kind"] as? String == "schema" && params["change"] as? String == "altered")
        let next = try Self.result(nobody.request(Self.scroll))
        let lost = try #require(next["lost"] as? [String: Any], "\(next)")
        #expect(lost["columns"] as? [String] == ["secret"])
        let gone = try #require(lost["where"] as? [[String: Any]])
        #expect(gone.count == 1 && gone.first?["column"] as? String == "secret")
        #expect(next["shown"] == nil && next["filter"] == nil)
        #expect(next["total"] as? Int == 3)
        #expect((next["rows"] as? [Any])?.count == 3)
        // Told once; the view goes on as it is now.
        let after = try Self.result(nobody.request(Self.scroll))
        #expect(after["lost"] == nil && (after["rows"] as? [Any])?.count == 3)
        let refiltered = try Self.result(nobody.request(Self.line("filter", #"{"table":"vault","search":"gear"}"#)))
        #expect(refiltered["where"] as? [Any] != nil && (refiltered["where"] as? [Any])?.isEmpty == true)
        #expect(refiltered["shown"] as? Int == 1)
    }

    /// A view grouped by a column loses its sections when the column is dropped; a view of a
    /// connection that can no longer read the table (after `chmod`) holds nothing up either.
    @Test(.tags(.slow)) func sectionsAndUnreadableViewsHoldNothingUp() throws {
        let (daemon, root, nobody) = try Self.vault()
        defer { withExtendedLifetime(daemon) {} }
        let grouped = try Self.result(
            nobody.request(
                Self.line(
                    "scroll",
                    #"{"table":"vault","unit":"cell","viewport":{"width":60,"height":10},"sections":{"column":"rack"}}"#
                )
            )
        )
        #expect(grouped["sections"] != nil)
        #expect(
            try errorKind(
                nobody.request(
                    Self.line("filter", #"{"table":"vault","where":[{"column":"secret","op":"=","value":"x"}]}"#)
                )
            ) == nil
        )

        // Read taken away: nobody's view is still there, and holds nothing up.
        #expect(try errorKind(root.request(Self.line("chmod", #"{"table":"vault","mode":"0600"}"#))) == nil)
        let altered = root.request(Self.line("alter", #"{"table":"vault","drop":["secret","rack"]}"#))
        #expect(try errorKind(altered) == nil, "\(altered ?? "")")
        #expect(try errorKind(nobody.request(Self.scroll)) == "permission_denied")

        // Read given back: the view hears what it lost, once.
        #expect(try errorKind(root.request(Self.line("chmod", #"{"table":"vault","mode":"0644"}"#))) == nil)
        let next = try Self.result(nobody.request(Self.scroll))
        let lost = try #require(next["lost"] as? [String: Any], "\(next)")
        #expect(Set(lost["columns"] as? [String] ?? []) == ["secret", "rack"])
        #expect(lost["sections"] as? String == "rack")
        #expect(next["sections"] == nil && next["shown"] == nil)
        #expect((next["rows"] as? [Any])?.count == 3)
    }
}
