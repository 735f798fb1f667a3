import DataTableProtocol
import DataTableServer
import Foundation

extension ChangeTrigger {
    /// The change a notification's `payload` tells of, or `nil` for one this daemon's own
    /// transaction (`origin`) caused, or one it cannot read.
    static func change(_ payload: String, ignoring origin: String) -> SourceSignal? {
        struct Payload: Decodable {
            var relation: String
            var key: String
            var origin: String?
        }
        guard let told = try? JSONDecoder().decode(Payload.self, from: Data(payload.utf8)) else { return nil }
        if told.origin == origin { return nil }
        return .changed(relation: told.relation, keys: [told.key])
    }
}
