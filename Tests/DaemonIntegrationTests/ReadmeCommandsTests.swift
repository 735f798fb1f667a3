import Foundation
import Glibc
import Testing

/// Every command README.md and clients/README.md show, run in order as written by bash (and then
/// clients/README.md's Python examples, by python3), against
/// the daemon `scripts/start` starts (the demo table, the default socket): each exits as its
/// comment says (0 unless it says "exit status N"), and prints no error reply unless its comment
/// (or the comment before it) says one comes. The few commands not run here are listed with the
/// test that runs them, or why they are not run on a test machine.
@Suite(
    .enabled(if: canRun(with: "socat"), "socat is not installed (scripts/install-dependencies installs it)")
)
struct ReadmeCommandsTests {
    static let repository = Repository.path

    /// Commands not run here, by how they start, and why.
    static let notRun: [(prefix: String, reason: String)] = [
        ("scripts/start", "started here as it starts the daemon (--demo, the default socket)"),
        ("scripts/test", "it runs this suite"),
        ("scripts/bench", "minutes of load for figures, not checks"),
        ("swift build", "the products are built before the tests run"),
        ("systemd-socket-activate", "SystemdTests runs the daemon under systemd-socket-activate"),
        (#"echo '{"method":"ping"}' | socat - UNIX-CONNECT:/tmp/x.sock"#, "the line after socket activation"),
        ("scripts/install-service", "installs onto the machine: .ci/run does, then checks the units"),
        ("scripts/build-deb", "a static release build of minutes: .ci/run builds, installs and purges it"),
        ("apt-get install", "installs onto the machine: .ci/run installs the package"),
        ("install ", "installs onto the machine (the manual form of scripts/install-service)"),
        ("systemd-sysusers", "installs onto the machine"),
        ("systemctl", "installs onto the machine"),
        ("datatabled --system", "the system service on the system path: SystemServiceTests runs it"),
        ("datatable view", "full screen: ViewerTests drives it in tmux"),
        ("datatable web", "serves until stopped: Tests/browser drives its page in Chromium"),
        ("datatable shell ", "interactive: ShellTests drives it in tmux (and it runs piped below)"),
        (#"echo '{"method":"attach""#, "needs a PostgreSQL source: Tests/sources runs it"),
        (#"echo '{"method":"edit","params":{"table":"parts""#, "an attached table's: Tests/sources runs it"),
    ]

    /// One command as a document shows it.
    struct Command {
        var line: String
        var document: String
        /// The comment on its line, and the comment lines just before it.
        var comments: String

        var expectedStatus: Int32 {
            guard let range = comments.range(of: "exit status ") else { return 0 }
            return Int32(comments[range.upperBound...].prefix { $0.isNumber }) ?? 0
        }

        var errorExpected: Bool {
            ["error", "refused", "draft"].contains { comments.lowercased().contains($0) }
        }
    }

    /// The commands of the ```sh blocks of `document`, in order.
    static func commands(of document: String) throws -> [Command] {
        let text = try String(contentsOfFile: repository + "/" + document, encoding: .utf8)
        var commands: [Command] = []
        var inBlock = false
        var pending = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") {
                inBlock = line == "```sh"
                pending = ""
                continue
            }
            guard inBlock else { continue }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            if trimmed.hasPrefix("#") {
                pending += " " + trimmed
                continue
            }
            let comment = line.range(of: "  # ").map { String(line[$0.upperBound...]) } ?? ""
            commands.append(Command(line: line, document: document, comments: pending + " " + comment))
            pending = ""
        }
        return commands
    }

    @Test(.tags(.slow)) func everyCommandInTheReadmesWorksAsWritten() throws {
        let commands = try Self.commands(of: "README.md") + Self.commands(of: "clients/README.md")
        let runHere = commands.filter { command in !Self.notRun.contains { command.line.hasPrefix($0.prefix) } }
        #expect(runHere.count >= 60, "only \(runHere.count) commands are run")
        #expect(commands.contains { $0.line.hasPrefix("scripts/start") })

        // A tree like the repository's, with the built products where scripts/start puts them.
        let scratch = try Scratch()
        defer { scratch.remove() }
        let tree = scratch.file("tree")
        for folder in [".build/release", ".build/debug", "run", "home"] {
            try FileManager.default.createDirectory(atPath: tree + "/" + folder, withIntermediateDirectories: true)
        }
        for entry in ["examples", "clients", "scripts", "systemd"] {
            try FileManager.default.createSymbolicLink(
                atPath: tree + "/" + entry,
                withDestinationPath: Self.repository + "/" + entry
            )
        }
        for product in ["datatable", "datatabled"] {
            for folder in [".build/release", ".build/debug"] {
                try FileManager.default.createSymbolicLink(
                    atPath: "\(tree)/\(folder)/\(product)",
                    withDestinationPath: "\(BuiltProducts.directory)/\(product)"
                )
            }
        }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = tree + "/run"
        environment["HOME"] = tree + "/home"
        environment["DATATABLED_SOCKET"] = nil
        environment["NO_COLOR"] = "1"
        let daemon = try RunningProcess(
            tree + "/.build/release/datatabled",
            ["--demo", "--log-target", "stderr"],
            environment: environment,
            outputPath: scratch.file("daemon.log")
        )
        defer { _ = daemon.stop() }
        try daemon.waitForSocket(tree + "/run/datatabled.sock")

        // One bash, so what a line sets (SOCK, PATH) holds for the lines after it.
        var script = "cd \(tree)\n"
        for (index, command) in runHere.enumerated() {
            script += "{ \(command.line)\n} < /dev/null > \(scratch.file("out.\(index)")) 2>&1\n"
            script += "echo $? > \(scratch.file("status.\(index)"))\n"
        }
        try script.write(toFile: scratch.file("commands.sh"), atomically: true, encoding: .utf8)
        let bash = try run(
            "/bin/bash",
            [scratch.file("commands.sh")],
            environment: environment
        )
        #expect(bash.status == 0, "\(bash.output)")
        for (index, command) in runHere.enumerated() {
            let output = (try? String(contentsOfFile: scratch.file("out.\(index)"), encoding: .utf8)) ?? ""
            let status = (try? String(contentsOfFile: scratch.file("status.\(index)"), encoding: .utf8))
                .flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            #expect(status == command.expectedStatus, "\(command.document): \(command.line)\n\(output)")
            if !command.errorExpected {
                #expect(!output.contains(#""error":"#), "\(command.document): \(command.line)\n\(output)")
            }
        }
        print("README commands: \(runHere.count) run as written, \(commands.count - runHere.count) run elsewhere")

        // Then each Python example, from the same directory, against the same daemon.
        let examples = try Self.blocks(of: "clients/README.md", language: "python")
        #expect(!examples.isEmpty)
        for (index, example) in examples.enumerated() {
            let file = scratch.file("example\(index).py")
            try ("import os; os.chdir(\"\(tree)\")\n" + example).write(toFile: file, atomically: true, encoding: .utf8)
            let result = try run("/usr/bin/env", ["python3", file], environment: environment)
            #expect(result.status == 0, "clients/README.md, Python example \(index + 1):\n\(result.output)")
            #expect(result.output.contains("'pong': True") || index > 0, "\(result.output)")
        }
    }

    /// The text of each ```LANGUAGE block of `document`, in order.
    static func blocks(of document: String, language: String) throws -> [String] {
        let text = try String(contentsOfFile: repository + "/" + document, encoding: .utf8)
        var blocks: [String] = []
        var current: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                if let finished = current { blocks.append(finished) }
                current = line == "```\(language)" ? "" : nil
            } else if current != nil {
                current! += line + "\n"
            }
        }
        return blocks
    }

    /// The meanings `help` gives for params are the doc comments' as they are now:
    /// `scripts/generate-param-meanings --check` finds nothing to write.
    @Test(.enabled(if: canRun(with: "python3"), "python3 is not installed"))
    func theParamMeaningsFollowTheDocComments() throws {
        let result = try run(
            "/usr/bin/env",
            ["python3", Self.repository + "/scripts/generate-param-meanings", "--check"]
        )
        #expect(result.status == 0, "\(result.output)")
    }
}
