import DataTableProtocol
import DataTableServer
import Foundation

extension ChangeTrigger {
    /// The change a notification's `payload` tells of, or `nil` for one this daemon's own
    /// transaction (`origin`) caused, or one it cannot read.
    static func change(_ payload: String, ignoring origin: String) -> SourceSignal? {
        struct Payload: Decodable {
            var relation: String
            /// One row's key (the trigger of one notification per row).
            var key: String?
            /// The keys a statement changed.
            var keys: [String]?
            /// Too many rows changed to list, or the relation was truncated.
            var all: Bool?
            var origin: String?
        }
        guard let told = try? JSONDecoder().decode(Payload.self, from: Data(payload.utf8)) else { return nil }
        if told.origin == origin { return nil }
        if told.all == true { return .changed(relation: told.relation, keys: nil) }
        let keys = (told.keys ?? []) + (told.key.map { [$0] } ?? [])
        return keys.isEmpty ? nil : .changed(relation: told.relation, keys: keys)
    }
}
