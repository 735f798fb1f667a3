import Foundation
import Glibc
import Testing

/// The stand-alone daemon's socket file: permissions, the default place, and what it does about
/// whatever is already at its path.
@Suite struct SocketPathTests {
    private func mode(of path: String) -> mode_t {
        var info = stat()
        lstat(path, &info)
        return info.st_mode & 0o7777
    }

    @Test func theSocketIsPrivateByDefault() throws {
        let daemon = try TestDaemon()
        #expect(mode(of: daemon.socketPath) == 0o600)
    }

    @Test func theSocketModeCanBeOpenedToTheGroup() throws {
        let daemon = try TestDaemon(arguments: ["--socket-mode", "0660"])
        #expect(mode(of: daemon.socketPath) == 0o660)
    }

    @Test func theSocketGroupCanBeChosen() throws {
        let group = getgid()
        let daemon = try TestDaemon(arguments: ["--socket-mode", "0660", "--socket-group", "\(group)"])
        var info = stat()
        #expect(lstat(daemon.socketPath, &info) == 0)
        #expect(info.st_gid == group)
        let unknown = try run(
            BuiltProducts.daemon,
            ["--socket", daemon.scratch.file("x.sock"), "--socket-group", "no-such-group-here"]
        )
        #expect(unknown.status != 0)
        #expect(unknown.output.contains("there is no group \"no-such-group-here\""))
    }

    @Test func aBadSocketModeIsRefusedBeforeStarting() throws {
        let result = try run(BuiltProducts.daemon, ["--socket", "/tmp/never.sock", "--socket-mode", "999"])
        #expect(result.status != 0)
        #expect(result.output.contains("--socket-mode"))
    }

    @Test(.tags(.slow)) func withoutAFlagTheSocketGoesUnderXDGRuntimeDir() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let daemon = try RunningProcess(
            BuiltProducts.daemon,
            ["--log-target", "stderr"],
            environment: ["XDG_RUNTIME_DIR": scratch.path],
            outputPath: scratch.file("output.log")
        )
        let expected = scratch.file("datatabled.sock")
        try daemon.waitForSocket(expected)
        #expect(daemon.waitForOutput(containing: "listening on \(expected)"))
        #expect(daemon.stop() == 0, "\(daemon.output)")
        #expect(!FileManager.default.fileExists(atPath: expected), "a stand-alone daemon removes its own socket")
    }

    @Test func aStaleSocketIsReplaced() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.file("d.sock")
        // A socket file nobody listens on: what a killed daemon leaves behind.
        let leftover = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un.unix(path)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(leftover, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        close(leftover)
        #expect(FileManager.default.fileExists(atPath: path))

        let daemon = try RunningProcess(
            BuiltProducts.daemon,
            ["--socket", path, "--log-target", "stderr"],
            outputPath: scratch.file("output.log")
        )
        try daemon.waitForSocket(path)
        let client = try UnixClient(path: path)
        try client.send(#"{"method":"ping"}"# + "\n")
        #expect(try object(try client.readLine())["result"] != nil)
        #expect(daemon.stop() == 0, "\(daemon.output)")
    }

    @Test func aLiveDaemonIsNeverTakenOver() throws {
        let first = try TestDaemon()
        let scratch = try Scratch()
        defer { scratch.remove() }
        let second = try RunningProcess(
            BuiltProducts.daemon,
            ["--socket", first.socketPath, "--log-target", "stderr"],
            outputPath: scratch.file("output.log")
        )
        let status = second.waitForExit()
        #expect(status != nil && status != 0)
        #expect(second.output.contains("already listening on \(first.socketPath)"))
        #expect(try object(try first.request(#"{"method":"ping"}"#))["result"] != nil)
    }

    @Test func aFileThatIsNotASocketIsNeverTouched() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.file("precious.txt")
        try "keep me\n".write(toFile: path, atomically: true, encoding: .utf8)
        let daemon = try RunningProcess(
            BuiltProducts.daemon,
            ["--socket", path, "--log-target", "stderr"],
            outputPath: scratch.file("output.log")
        )
        let status = daemon.waitForExit()
        #expect(status != nil && status != 0)
        #expect(daemon.output.contains("is not a socket"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me\n")
    }

    @Test func aMissingDirectoryIsAClearError() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let daemon = try RunningProcess(
            BuiltProducts.daemon,
            ["--socket", scratch.file("nowhere/d.sock"), "--log-target", "stderr"],
            outputPath: scratch.file("output.log")
        )
        let status = daemon.waitForExit()
        #expect(status != nil && status != 0)
        #expect(daemon.output.contains("does not exist"))
    }
}
