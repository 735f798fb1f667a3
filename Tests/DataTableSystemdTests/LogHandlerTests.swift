import DataTableSystemd
import Foundation
import Logging
import Testing

@Suite struct LogHandlerTests {
    @Test(arguments: [
        ("method", "DATATABLED_METHOD"),
        ("client.pid", "DATATABLED_CLIENT_PID"),
        ("Table-Name", "DATATABLED_TABLE_NAME"),
        ("größe", "DATATABLED_GR__E"),
        (String(repeating: "k", count: 80), "DATATABLED_" + String(repeating: "K", count: 53)),
    ])
    func journalFieldNamesAreUpperCaseASCII(key: String, field: String) {
        let name = JournaldLogHandler.fieldName(for: key)
        #expect(name == field)
        #expect(name.count <= 64)
        #expect(name.allSatisfy { $0.isASCII && ($0.isUppercase || $0.isNumber || $0 == "_") })
    }

    @Test func journalIsChosenOnlyWhenStderrIsTheJournalStream() throws {
        var info = stat()
        #expect(fstat(STDERR_FILENO, &info) == 0)
        let matching = "\(info.st_dev):\(info.st_ino)"
        #expect(LogDestination.detect(environment: ["JOURNAL_STREAM": matching]) == .journal)
        #expect(LogDestination.detect(environment: ["JOURNAL_STREAM": "\(info.st_dev):\(info.st_ino + 1)"]) == .stderr)
        #expect(LogDestination.detect(environment: ["JOURNAL_STREAM": "garbage"]) == .stderr)
        #expect(LogDestination.detect(environment: [:]) == .stderr)
    }
}
