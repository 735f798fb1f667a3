import DataTableServer
import DataTableSources
import Foundation
import Logging

extension DataTabledCommand {
    /// The sources of `--source`, each with its password read (`--source-password-file`, a
    /// systemd credential, or libpq's password file); a bad one stops the start with the reason.
    func makeSources(environment: [String: String], logger: Logger) throws -> [any TableSource] {
        var passwordFiles: [String: String] = [:]
        for given in sourcePasswordFile {
            guard let equals = given.firstIndex(of: "="), equals != given.startIndex else {
                throw StartupError("--source-password-file takes NAME=FILE, not \(given).")
            }
            passwordFiles[String(given[..<equals])] = String(given[given.index(after: equals)...])
        }
        var names: Set<String> = []
        var sources: [any TableSource] = []
        for given in try source + sourcesFileLines() {
            do {
                var option = try SourceOption(parsing: given)
                guard names.insert(option.name).inserted else {
                    throw StartupError("Two sources are called \(option.name).")
                }
                try option.readPassword(file: passwordFiles[option.name], environment: environment)
                sources.append(PostgresSource(option, logger: logger))
                logger.info("source \(option.name): database \(option.database) as \(option.user)")
            } catch let error as SourceOptionError {
                throw StartupError("--source: \(error)")
            }
        }
        for name in passwordFiles.keys where !names.contains(name) {
            throw StartupError("--source-password-file names \(name), which no --source is.")
        }
        return sources
    }

    /// The sources `--sources-file` names, one `NAME=URL` a line; none without the option.
    private func sourcesFileLines() throws -> [String] {
        guard let sourcesFile else { return [] }
        guard let text = try? String(contentsOfFile: sourcesFile, encoding: .utf8) else {
            throw StartupError("--sources-file: \(sourcesFile) cannot be read.")
        }
        return text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }
}
