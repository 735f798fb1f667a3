import ArgumentParser
import Foundation

/// The daemon's entry point. It parses the command line and, for `--system` started as root,
/// takes the service user's identity while the process has one thread: glibc changes the ids of
/// every other thread by a signal, which a main thread parked by Dispatch (as it is once Swift's
/// async main runs) never takes, so a later switch would leave that thread root.
@main
enum DataTabledMain {
    static func main() {
        let command: DataTabledCommand
        do {
            command = try DataTabledCommand.parse()
            try command.takeServiceIdentity(environment: ProcessInfo.processInfo.environment)
        } catch let failure as StartupError {
            FileHandle.standardError.write(Data("<2>cannot start: \(failure)\n".utf8))
            DataTabledCommand.exit(withError: ExitCode.failure)
        } catch {
            DataTabledCommand.exit(withError: error)
        }
        Task {
            do {
                try await command.run()
            } catch {
                DataTabledCommand.exit(withError: error)
            }
            DataTabledCommand.exit()
        }
        dispatchMain()
    }
}
