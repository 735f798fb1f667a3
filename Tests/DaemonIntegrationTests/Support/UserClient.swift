import Foundation
import Glibc

/// A throwaway local user (and its own group), made with `useradd` and removed with `userdel`.
final class ThrowawayUser {
    let name: String
    let uid: UInt32
    let gid: UInt32

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Makes a user called `dt` + `role` + a number unique to this process.
    init(_ role: String) throws {
        name = "dt\(role)\(getpid() % 100_000)"
        Self.remove(name)
        let made = try run(
            which("useradd")!,
            ["--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin", name]
        )
        guard made.status == 0, let entry = getpwnam(name) else {
            throw Failure(description: "useradd \(name): \(made.output)")
        }
        uid = entry.pointee.pw_uid
        gid = entry.pointee.pw_gid
    }

    deinit { Self.remove(name) }

    /// Removes the user and its group (which `userdel` keeps while another user is in it).
    private static func remove(_ name: String) {
        _ = try? run(which("userdel")!, [name])
        _ = try? run(which("groupdel")!, [name])
    }
}

/// One connection to the daemon made by another user: `socat` run as that user through
/// `runuser`, its input and output kept open, so one connection carries many requests.
final class UserClient {
    private let process: Process
    private let input: FileHandle
    private let output: Int32
    private var pending: [UInt8] = []

    init(as user: String, socket: String) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: which("runuser")!)
        process.arguments = ["-u", user, "--", which("socat")!, "-", "UNIX-CONNECT:\(socket)"]
        let inputPipe = Pipe()
        let outputPipe = Pipe()
        process.standardInput = inputPipe
        process.standardOutput = outputPipe
        process.standardError = outputPipe
        try process.run()
        input = inputPipe.fileHandleForWriting
        output = outputPipe.fileHandleForReading.fileDescriptor
    }

    deinit {
        try? input.close()
        process.terminate()
        process.waitUntilExit()
    }

    func send(_ line: String) {
        input.write(Data((line + "\n").utf8))
    }

    /// The next line, or `nil` when none came within `timeout` or the stream ended.
    func readLine(timeout: Duration = .seconds(10)) -> String? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            var poller = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, (deadline - .now).milliseconds) > 0 else { return nil }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress!, $0.count) }
            guard count > 0 else { return nil }
            pending.append(contentsOf: chunk[..<count])
        }
    }

    /// Sends `line` and returns its reply (notifications that come first are skipped).
    func request(_ line: String) -> String? {
        send(line)
        while let reply = readLine() {
            if !reply.hasPrefix(#"{"jsonrpc""#) { return reply }
        }
        return nil
    }
}

/// Copies the executable at `source` to `destination` (mode 0755), for other users to run. The
/// copy is written through a descriptor closed on exec: one inherited by a process another test
/// forks meanwhile would keep the file open for writing, and running it would then fail with
/// "Text file busy".
func copyExecutable(_ source: String, to destination: String) throws {
    let bytes = try Data(contentsOf: URL(fileURLWithPath: source))
    let descriptor = open(destination, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    guard descriptor >= 0 else {
        throw ThrowawayUser.Failure(description: "open \(destination): \(String(cString: strerror(errno)))")
    }
    defer { close(descriptor) }
    try bytes.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
            let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            guard written > 0 else {
                throw ThrowawayUser.Failure(description: "write \(destination): \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }
    fchmod(descriptor, 0o755)
}
