import Foundation
import Testing

/// The shipped systemd units, checked by systemd's own analyzer.
@Suite(.enabled(if: canRun(with: "systemd-analyze"), "systemd-analyze is not installed (apt install systemd)"))
struct UnitFileTests {
    /// The repository's `systemd/` folder.
    private static let unitDirectory = Repository.path + "/systemd"

    private func analyze() throws -> String {
        try #require(which("systemd-analyze"), "systemd-analyze is not installed (apt install systemd)")
    }

    @Test func verifyHasNothingToSay() throws {
        // Verify the units as shipped, with ExecStart pointed at this build (verify checks that
        // the program exists).
        let scratch = try Scratch()
        defer { scratch.remove() }
        let service = try String(contentsOfFile: Self.unitDirectory + "/datatabled.service", encoding: .utf8)
        #expect(service.contains("ExecStart=/usr/local/bin/datatabled "))
        try service.replacingOccurrences(
            of: "ExecStart=/usr/local/bin/datatabled ",
            with: "ExecStart=\(BuiltProducts.daemon) "
        ).write(toFile: scratch.file("datatabled.service"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(
            atPath: Self.unitDirectory + "/datatabled.socket",
            toPath: scratch.file("datatabled.socket")
        )
        let result = try run(
            try analyze(),
            ["verify", scratch.file("datatabled.socket"), scratch.file("datatabled.service")]
        )
        #expect(result.output.isEmpty, "systemd-analyze verify said:\n\(result.output)")
        #expect(result.status == 0)
    }

    @Test func theServiceIsHardened() throws {
        let result = try run(
            try analyze(),
            ["security", "--offline=yes", "--no-pager", Self.unitDirectory + "/datatabled.service"]
        )
        let marker = "Overall exposure level for datatabled.service: "
        let line = try #require(result.output.split(separator: "\n").first { $0.contains(marker) })
        let score = try #require(Double(line.components(separatedBy: marker)[1].split(separator: " ")[0]))
        #expect(score <= 2.0, "exposure \(score)")
    }

    @Test func theUnitsMatchTheBrief() throws {
        let socket = try String(contentsOfFile: Self.unitDirectory + "/datatabled.socket", encoding: .utf8)
        for setting in [
            "ListenStream=/run/datatabled/datatabled.sock", "SocketMode=0660", "SocketGroup=datatabled", "Accept=no",
        ] {
            #expect(socket.contains(setting))
        }
        let service = try String(contentsOfFile: Self.unitDirectory + "/datatabled.service", encoding: .utf8)
        for setting in [
            "Type=notify", "StateDirectory=datatabled", "WatchdogSec=", "ProtectSystem=strict", "PrivateNetwork=yes",
            "RestrictAddressFamilies=AF_UNIX", "SystemCallFilter=",
        ] {
            #expect(service.contains(setting))
        }
        // systemd would delete the socket's directory with the service's runtime directory.
        #expect(!service.contains("RuntimeDirectory=datatabled"))
        let sysusers = try String(contentsOfFile: Self.unitDirectory + "/datatabled.sysusers.conf", encoding: .utf8)
        #expect(sysusers.contains("g       datatabled"))
    }
}
