import DataTableProtocol
import Foundation

/// Refuses params a method does not take: a misspelt or unknown member is `invalid_params`
/// naming it (and the member it was probably meant to be), never silently ignored.
///
/// The decoded request is encoded again and the two compared, member by member and at every
/// depth: a member the client sent (other than `null`) that the request did not keep is one the
/// method does not know. Requests read straight from the bytes (``ReadableParams``) need no
/// check: the reader refuses any member it does not know and leaves the line to the decoder.
///
/// No check is made where the request's context says params are lenient
/// (``RequestContext/lenientParams``): a connection that asked for it, and logged requests
/// replayed at start-up (they were accepted once, and are again).
enum KnownParams {
    static func check<Request: DataTableRequest>(_ request: Request, sent params: Data) throws(ResponseError) {
        guard let sent = try? JSONDecoder().decode(JSONValue.self, from: params),
            let kept = try? JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(request))
        else { return }
        try compare(sent, kept, path: "params", Request.self)
    }

    private static func compare<Request: DataTableRequest>(
        _ sent: JSONValue,
        _ kept: JSONValue,
        path: String,
        _ request: Request.Type
    ) throws(ResponseError) {
        switch (sent, kept) {
        case (.object(let sentMembers), .object(let keptMembers)):
            for (key, value) in sentMembers.sorted(by: { $0.key < $1.key }) where value != .null {
                guard let keptValue = keptMembers[key] else {
                    // The method's own params, as the type reads them; deeper, what was kept.
                    let known =
                        path == "params" ? ParamsSchema(of: Request.self).params.map(\.name) : Array(keptMembers.keys)
                    throw unknown(key, at: path, names: known, method: Request.method)
                }
                try compare(value, keptValue, path: path + "." + key, request)
            }
        case (.array(let sentElements), .array(let keptElements)) where sentElements.count == keptElements.count:
            for (index, (element, keptElement)) in zip(sentElements, keptElements).enumerated() {
                try compare(element, keptElement, path: "\(path)[\(index)]", request)
            }
        default:
            return
        }
    }

    private static func unknown(_ key: String, at path: String, names: [String], method: String) -> ResponseError {
        let field = path + "." + key
        let close = names.min { distance($0, key) < distance($1, key) }.flatMap { distance($0, key) <= 2 ? $0 : nil }
        let hint = close.map { " Did you mean \($0)?" } ?? ""
        if path == "params" {
            let takes = names.isEmpty ? "no params" : names.joined(separator: ", ")
            return .invalidParams("\(key) is not a param of \(method).\(hint) \(method) takes \(takes).", field: field)
        }
        return .invalidParams("\(key) is not known in \(path).\(hint)", field: field)
    }

    /// How many single-character edits turn `a` into `b`.
    private static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased())
        let b = Array(b.lowercased())
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
