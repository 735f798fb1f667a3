import Foundation
import Glibc
import Testing

/// Where the built executables are: beside the test runner, or `$DATATABLED_BIN_DIR`.
enum BuiltProducts {
    static let directory: String = {
        if let explicit = ProcessInfo.processInfo.environment["DATATABLED_BIN_DIR"] {
            return explicit
        }
        var directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        // The test runner may sit inside a bundle directory below the products.
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("datatabled").path),
            directory.path != "/"
        {
            directory.deleteLastPathComponent()
        }
        return directory.path
    }()

    static let daemon = directory + "/datatabled"
    static let client = directory + "/datatable"
}

/// The repository the tests run from: the folder of `Package.swift` above this file.
enum Repository {
    static let path: String = {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
            directory.deleteLastPathComponent()
        }
        return directory.path
    }()
}

/// A fresh private directory under /tmp (short, for socket paths).
struct Scratch {
    let path: String

    init() throws {
        var template = Array("/tmp/dt-test-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw UnixClient.Failure(description: "mkdtemp: \(String(cString: strerror(errno)))")
        }
        path = String(cString: made)
    }

    func file(_ name: String) -> String { path + "/" + name }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// A process under test (the daemon, or a tool that execs it), with its output kept in a file.
final class RunningProcess {
    let process = Process()
    let outputPath: String

    /// Starts `executable` with `arguments` and exactly `environment` (plus PATH); stdout and
    /// stderr are appended to `outputPath`.
    init(_ executable: String, _ arguments: [String], environment: [String: String] = [:], outputPath: String) throws {
        self.outputPath = outputPath
        // Appends to the file if it exists, keeping its inode (a test may have named it in
        // JOURNAL_STREAM).
        let descriptor = open(outputPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw UnixClient.Failure(description: "open \(outputPath): \(String(cString: strerror(errno)))")
        }
        let log = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var environment = environment
        environment["PATH"] = environment["PATH"] ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        process.environment = environment
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    var pid: Int32 { process.processIdentifier }

    /// Everything the process printed so far.
    var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }

    /// Sends `signal` and waits for the exit: the exit status, or `nil` if it did not exit in time.
    func stop(signal: Int32 = SIGTERM, timeout: Duration = .seconds(15)) -> Int32? {
        if process.isRunning { kill(process.processIdentifier, signal) }
        return waitForExit(timeout: timeout)
    }

    /// The exit status once the process has exited, or `nil` after `timeout`. A process killed
    /// by a signal reports 128 + the signal's number, as a shell does.
    func waitForExit(timeout: Duration = .seconds(15)) -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            guard ContinuousClock.now < deadline else { return nil }
            usleep(10_000)
        }
        return process.terminationReason == .uncaughtSignal
            ? 128 + process.terminationStatus : process.terminationStatus
    }

    /// Waits until something accepts connections at `path`.
    func waitForSocket(_ path: String, timeout: Duration = .seconds(15)) throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if (try? UnixClient(path: path)) != nil { return }
            guard process.isRunning else {
                throw UnixClient.Failure(
                    description: "exited with \(process.terminationStatus) before listening:\n\(output)"
                )
            }
            usleep(10_000)
        }
        throw UnixClient.Failure(description: "nothing listened on \(path) in time:\n\(output)")
    }

    /// Waits until a socket at `path` is listening, without connecting to it (a connection would
    /// start a lazily activated daemon, or use up a listener that accepts only one). The kernel's
    /// table of Unix sockets says which are listening: a program binds first (the file appears)
    /// and listens a moment later, and a connection between the two is refused. (The table
    /// names a socket by the path it was bound to: not for a socket bound elsewhere and renamed,
    /// as the daemon's own are.)
    func waitForListener(_ path: String, timeout: Duration = .seconds(15)) throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if Self.isListening(path) { return }
            usleep(10_000)
        }
        throw UnixClient.Failure(description: "nothing listened on \(path) in time:\n\(output)")
    }

    /// Whether `/proc/net/unix` lists a listening socket bound to `path` (flag `__SO_ACCEPTCON`).
    static func isListening(_ path: String) -> Bool {
        // Read to the end by hand: a /proc file says it is empty, and Foundation's readers stop
        // after its first page.
        let descriptor = open("/proc/net/unix", O_RDONLY)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        let table = String(decoding: bytes, as: UTF8.self)
        let listening: UInt32 = 0x0001_0000
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 8, fields[7] == path, let flags = UInt32(fields[3], radix: 16) else { continue }
            if flags & listening != 0 { return true }
        }
        return false
    }

    /// Waits until a file exists at `path`.
    func waitForFile(_ path: String, timeout: Duration = .seconds(15)) throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if FileManager.default.fileExists(atPath: path) { return }
            usleep(10_000)
        }
        throw UnixClient.Failure(description: "\(path) did not appear:\n\(output)")
    }

    /// Waits until the output contains `text`.
    func waitForOutput(containing text: String, timeout: Duration = .seconds(15)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if output.contains(text) { return true }
            usleep(10_000)
        }
        return false
    }
}

/// The daemon, stand-alone on a socket in a scratch directory, logging to its stderr file.
final class TestDaemon {
    let scratch: Scratch
    let socketPath: String
    let process: RunningProcess

    init(arguments: [String] = [], environment: [String: String] = [:]) throws {
        scratch = try Scratch()
        socketPath = scratch.file("d.sock")
        process = try RunningProcess(
            BuiltProducts.daemon,
            ["--socket", socketPath, "--log-target", "stderr"] + arguments,
            environment: environment,
            outputPath: scratch.file("output.log")
        )
        try process.waitForSocket(socketPath)
    }

    deinit {
        _ = process.stop(signal: SIGKILL)
        scratch.remove()
    }

    func connect() throws -> UnixClient { try UnixClient(path: socketPath) }

    /// Sends one line on a new connection and returns the one reply line.
    func request(_ line: String) throws -> String {
        let client = try connect()
        try client.send(line + "\n")
        return try #require(try client.readLine())
    }
}

/// Parses a reply line into an object.
func object(_ line: String?) throws -> [String: Any] {
    let text = try #require(line)
    return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
}

/// The `error.data.kind` of a reply line, if it is an error.
func errorKind(_ line: String?) throws -> String? {
    let error = try object(line)["error"] as? [String: Any]
    return (error?["data"] as? [String: Any])?["kind"] as? String
}

/// Runs a command to completion: its exit status and combined output.
func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> (
    status: Int32, output: String
) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// Whether the tests that need `tool` run: it is installed, or this is CI (where a missing tool
/// is a failure, not a reason to skip: `.ci/run` installs them all).
func canRun(with tool: String) -> Bool {
    which(tool) != nil || ProcessInfo.processInfo.environment["CI"] != nil
}

/// The absolute path of a tool on PATH (or in the sbin directories), or `nil`.
func which(_ tool: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    let directories = path.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin", "/lib/systemd"]
    for directory in directories {
        let candidate = "\(directory)/\(tool)"
        if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
}
