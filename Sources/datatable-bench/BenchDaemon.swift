import Foundation

/// A daemon started for one benchmark run: the `datatabled` built next to this program, on a
/// socket in a scratch directory.
final class BenchDaemon {
    let socketPath: String
    private let process = Process()

    /// Starts `datatabled` with a socket in `directory` and `arguments`; returns once it listens.
    init(directory: URL, arguments: [String] = []) throws {
        socketPath = directory.appendingPathComponent("d.sock").path
        let here = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let binary = here.appendingPathComponent("datatabled")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw BenchClient.Refused(
                description: "no datatabled next to this program (\(binary.path)); build both first"
            )
        }
        process.executableURL = binary
        process.arguments = ["--socket", socketPath, "--log-target", "stderr", "--log-level", "warning"] + arguments
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: socketPath) {
            guard Date() < deadline, process.isRunning else {
                throw BenchClient.Refused(description: "datatabled did not start")
            }
            usleep(20_000)
        }
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}
