import Foundation

/// redis-benchmark's PING and GET against a throwaway redis-server on a Unix socket, as the
/// reference for small commands. Absent when redis-server or redis-benchmark is not installed.
struct RedisReference {
    /// Requests per second for PING and GET.
    struct Figures {
        var ping: Double
        var get: Double
    }

    private let server = Process()
    private let socketPath: String
    private let benchmark: String

    /// Starts redis-server on a socket in `directory`; `nil` (with the reason) when it cannot.
    static func start(in directory: URL) -> (RedisReference?, String?) {
        guard let server = which("redis-server"), let benchmark = which("redis-benchmark") else {
            return (nil, "redis-server and redis-benchmark are not installed (Debian: redis-server, redis-tools)")
        }
        do {
            return (try RedisReference(server: server, benchmark: benchmark, directory: directory), nil)
        } catch {
            return (nil, "redis-server did not start: \(error)")
        }
    }

    private init(server path: String, benchmark: String, directory: URL) throws {
        socketPath = directory.appendingPathComponent("redis.sock").path
        self.benchmark = benchmark
        server.executableURL = URL(fileURLWithPath: path)
        server.arguments = [
            "--port", "0", "--unixsocket", socketPath, "--save", "", "--appendonly", "no",
            "--dir", directory.path, "--logfile", "",
        ]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: socketPath) {
            guard Date() < deadline, server.isRunning else {
                throw BenchClient.Refused(description: "no socket at \(socketPath)")
            }
            usleep(20_000)
        }
    }

    func stop() {
        server.terminate()
        server.waitUntilExit()
    }

    /// PING and GET throughput with `clients` connections, `pipeline` requests in flight each.
    func measure(clients: Int, pipeline: Int, requests: Int) throws -> Figures {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: benchmark)
        process.arguments = [
            "-s", socketPath, "-c", String(clients), "-P", String(pipeline), "-n", String(requests),
            "-t", "ping,set,get", "--csv",
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // Lines like "PING_MBULK","91743.12",… (the test, then requests per second).
        var rates: [String: Double] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            if fields.count >= 2, let rate = Double(fields[1]) { rates[fields[0]] = rate }
        }
        guard let ping = rates["PING_MBULK"] ?? rates["PING_INLINE"], let get = rates["GET"] else {
            throw BenchClient.Refused(description: "redis-benchmark printed no PING/GET figures: \(text.prefix(300))")
        }
        return Figures(ping: ping, get: get)
    }
}

/// The absolute path of `tool` on PATH, or `nil`.
func which(_ tool: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") + ["/usr/sbin", "/usr/bin"] {
        let candidate = "\(directory)/\(tool)"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
}
