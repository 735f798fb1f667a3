import Foundation
import Glibc
import Testing

@testable import DataTableServer

/// A client's file is read whole, in pieces on every core when it is large: every byte in its
/// place, however the size falls among the pieces, and one that grows past the limit is refused.
@Suite struct ClientFileTests {
    static func file(_ bytes: [UInt8]) throws -> String {
        let path = NSTemporaryDirectory() + "client-file-\(UUID().uuidString)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func pattern(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) }
    }

    @Test(arguments: [0, 1, 4096, ClientFile.piecewiseReadBytes - 1, ClientFile.piecewiseReadBytes + 7])
    func everyByteIsReadInItsPlace(size: Int) throws {
        let bytes = Self.pattern(size)
        let path = try Self.file(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try ClientFile(path: path, descriptor: open(path, O_RDONLY))
        #expect(file.size == size)
        let read = try file.readAll(limit: 1 << 30)
        #expect(read.count == size)
        #expect(read == bytes)
    }

    /// A file that grew after it was opened is read to its new end, or refused past the limit.
    @Test func aFileThatGrewIsReadToItsEndOrRefused() throws {
        let size = ClientFile.piecewiseReadBytes + 3
        let path = try Self.file(Self.pattern(size))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try ClientFile(path: path, descriptor: open(path, O_RDONLY))
        let grown = Self.pattern(size + 100_000)
        // Appended in place: the descriptor stays on the same file.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: grown[size...])
        try handle.close()
        #expect(try file.readAll(limit: 1 << 30) == grown)
        #expect(throws: (any Error).self) { try file.readAll(limit: size + 10) }
    }
}
