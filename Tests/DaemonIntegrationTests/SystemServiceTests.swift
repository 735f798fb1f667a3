import DataTableProtocol
import Foundation
import Glibc
import Testing

/// The installed service as its users meet it without systemd: `datatabled --system` started as
/// root, at the system socket path, and ordinary users reaching it with nothing set.
@Suite(
    .serialized,
    .enabled(if: getuid() == 0, "makes users and runs the daemon as root"),
    .enabled(if: canRun(with: "runuser") && canRun(with: "useradd"), "needs runuser and useradd")
)
struct SystemServiceTests {
    /// The socket's directory the system path lives in.
    static let runDirectory = "/run/datatabled"

    /// A service user, a member of its group and a user outside it; the client copied where
    /// every user may run it; and the system socket's directory cleared of what an earlier run
    /// left (refusing when a daemon listens there).
    private struct Setting {
        let service: ThrowawayUser
        let member: ThrowawayUser
        let outsider: ThrowawayUser
        let scratch: Scratch
        let client: String

        init() throws {
            #expect(
                !RunningProcess.isListening(SocketLocation.systemPath),
                "a daemon already listens on \(SocketLocation.systemPath); stop it to run these tests"
            )
            try #require(!RunningProcess.isListening(SocketLocation.systemPath))
            try? FileManager.default.removeItem(atPath: SystemServiceTests.runDirectory)
            service = try ThrowawayUser("svc")
            member = try ThrowawayUser("mem")
            outsider = try ThrowawayUser("out")
            let joined = try run(which("usermod")!, ["-a", "-G", service.name, member.name])
            try #require(joined.status == 0, "usermod: \(joined.output)")
            scratch = try Scratch()
            chmod(scratch.path, 0o755)
            client = scratch.file("datatable")
            try copyExecutable(BuiltProducts.client, to: client)
        }

        /// `datatable ARGUMENTS` run as `user` with an empty environment (but PATH). A copy still
        /// open for writing in a process another test forked is tried again a moment later.
        func client(as user: ThrowawayUser, _ arguments: [String]) throws -> (status: Int32, output: String) {
            var result: (status: Int32, output: String)
            var tries = 0
            repeat {
                if tries > 0 { usleep(50_000) }
                tries += 1
                result = try run(
                    which("runuser")!,
                    ["-u", user.name, "--", "/usr/bin/env", "-i", "PATH=/usr/bin:/bin", client] + arguments
                )
            } while result.status == 126 && result.output.contains("Text file busy") && tries < 40
            return result
        }

        func remove() {
            scratch.remove()
            try? FileManager.default.removeItem(atPath: SystemServiceTests.runDirectory)
        }
    }

    @Test func aGroupMemberReachesTheSystemServiceWithNothingSet() throws {
        let setting = try Setting()
        defer { setting.remove() }
        let state = setting.scratch.file("state")
        let daemon = try RunningProcess(
            BuiltProducts.daemon,
            ["--system", "--user", setting.service.name, "--state-dir", state, "--demo", "--log-target", "stderr"],
            outputPath: setting.scratch.file("output.log")
        )
        try daemon.waitForSocket(SocketLocation.systemPath)

        let member = try setting.client(as: setting.member, ["tables"])
        #expect(member.status == 0, "\(member.output)")
        #expect(member.output.contains("stock"), "\(member.output)")

        // Someone outside the group is told which places were tried, and why each failed.
        let outsider = try setting.client(as: setting.outsider, ["tables"])
        #expect(outsider.status == 2)
        #expect(outsider.output.contains("/tmp/datatabled-\(setting.outsider.uid)/datatabled.sock (No such file"))
        #expect(
            outsider.output.contains(
                "\(SocketLocation.systemPath) (Permission denied; it admits members of the group \(setting.service.name))"
            ),
            "\(outsider.output)"
        )
        #expect(daemon.stop() == 0, "\(daemon.output)")
    }

    @Test func theServiceWithoutSystemdKeepsItsStateAcrossARestartAndLogsToJournald() throws {
        let setting = try Setting()
        defer { setting.remove() }
        let state = setting.scratch.file("lib/datatabled")
        let arguments = ["--system", "--user", setting.service.name, "--state-dir", state]
        let first = try RunningProcess(BuiltProducts.daemon, arguments, outputPath: setting.scratch.file("first.log"))
        try first.waitForSocket(SocketLocation.systemPath)

        // The socket and the state directory are the units': the user's group may connect, and
        // only the user reads the tables.
        var socketInfo = stat()
        #expect(stat(SocketLocation.systemPath, &socketInfo) == 0)
        #expect(socketInfo.st_mode & 0o777 == 0o660 && socketInfo.st_gid == setting.service.gid)
        var stateInfo = stat()
        #expect(stat(state, &stateInfo) == 0)
        #expect(stateInfo.st_mode & 0o777 == 0o750 && stateInfo.st_uid == setting.service.uid)
        #expect(try threadUIDs(first.pid) == [setting.service.uid], "the daemon must run as the service's user")

        let made = try setting.client(
            as: setting.member,
            ["create", "parts", "--column", "sku", "--column", "qty:number"]
        )
        #expect(made.status == 0, "\(made.output)")
        let added = try setting.client(as: setting.member, ["add", "parts", "--row", "sku=A1", "qty=4"])
        #expect(added.status == 0, "\(added.output)")
        #expect(first.stop() == 0, "\(first.output)")

        let second = try RunningProcess(BuiltProducts.daemon, arguments, outputPath: setting.scratch.file("second.log"))
        try second.waitForSocket(SocketLocation.systemPath)
        let rows = try setting.client(as: setting.member, ["get", "parts", "--csv"])
        #expect(rows.status == 0 && rows.output.contains("A1,4"), "\(rows.output)")
        // Kept with its owner: the member who made it, named.
        let listed = try setting.client(as: setting.member, ["tables"])
        let line = listed.output.split(separator: "\n").first { $0.hasPrefix("parts ") }
        #expect(line?.contains(" \(setting.member.name) ") == true, "\(listed.output)")

        // With a journald running, that is where the logs went.
        if journaldAnswers() {
            #expect(second.output.isEmpty, "logs went to stderr: \(second.output)")
            var messages: [String] = []
            for _ in 0..<100 {
                messages = try journalEntries(pid: second.pid).compactMap { $0["MESSAGE"] as? String }
                if messages.contains(where: { $0.contains("listening on \(SocketLocation.systemPath)") }) { break }
                usleep(50_000)
            }
            #expect(messages.contains { $0.contains("restored 1 table (1 row)") }, "\(messages)")
        } else {
            #expect(
                ProcessInfo.processInfo.environment["CI"] == nil,
                "no journald answers: scripts/test starts one (scripts/start-journald)"
            )
            #expect(second.output.contains("restored 1 table (1 row)"), "\(second.output)")
        }
        #expect(second.stop() == 0, "\(second.output)")
    }

    @Test func aUserThatDoesNotExistIsNamedWithHowToMakeIt() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let result = try run(
            BuiltProducts.daemon,
            [
                "--system", "--user", "no-such-user-here", "--socket", scratch.file("d.sock"), "--state-dir",
                scratch.file("state"), "--log-target", "stderr",
            ]
        )
        #expect(result.status != 0)
        #expect(result.output.contains("--system runs as the user no-such-user-here, and there is none"))
        #expect(!FileManager.default.fileExists(atPath: scratch.file("state")), "nothing is made for a refused start")
    }

    /// The real user ids of a running process's live threads, from `/proc/PID/task/*/status`
    /// (a main thread that has ended, as Dispatch's main does, keeps what it had).
    private func threadUIDs(_ pid: Int32) throws -> Set<UInt32> {
        var uids: Set<UInt32> = []
        for task in try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8) else {
                continue
            }
            let fields = Dictionary(
                status.split(separator: "\n").map { line in
                    let parts = line.split(separator: ":", maxSplits: 1)
                    return (String(parts[0]), parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
                },
                uniquingKeysWith: { first, _ in first }
            )
            guard fields["State"]?.hasPrefix("Z") == false, let uid = fields["Uid"]?.split(separator: "\t").first
            else { continue }
            uids.insert(UInt32(uid) ?? .max)
        }
        return uids
    }
}
