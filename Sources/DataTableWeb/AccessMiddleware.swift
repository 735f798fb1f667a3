import Foundation
import Hummingbird

/// Refuses, with 403 and a sentence saying why, every request that does not name the bridge in
/// `Host` or carry its token (in the URL once, then in the cookie it is exchanged for); adds to
/// every answer the headers that keep the page to itself (no framing, no referrer that could
/// carry the token, no scripts or connections but its own).
struct AccessMiddleware<Context: RequestContext>: RouterMiddleware {
    let access: AccessBox

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard let access = access.access else { return Self.refusal("The bridge is still starting.") }
        let host = request.head.authority
        guard access.admitsHost(host) else {
            return Self.refusal(
                "This bridge answers only to \(access.hosts.sorted().joined(separator: ", ")), not to \(host ?? "a request without Host")."
            )
        }
        if let given = request.uri.queryParameters.get("token") {
            guard access.isToken(given) else {
                return Self.refusal("The token in this URL is not this bridge's: open the URL datatable web printed.")
            }
            // The token leaves the URL at once: the page is loaded again without it, holding the
            // cookie instead.
            var query: [String] = []
            if let table = request.uri.queryParameters.get("table") {
                query.append("table=" + (table.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))
            }
            var response = Response(
                status: .seeOther,
                headers: [.location: request.uri.path + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))]
            )
            response.setCookie(
                Cookie(name: access.cookieName, value: access.token, path: "/", httpOnly: true, sameSite: .strict)
            )
            return Self.hardened(response, host: host ?? "")
        }
        guard access.isToken(request.cookies[access.cookieName]?.value) else {
            return Self.refusal(
                "This page needs the token: open the URL datatable web printed (it carries the token once, then a cookie does)."
            )
        }
        return Self.hardened(try await next(request, context), host: host ?? "")
    }

    /// A 403 with `message` as plain text.
    static func refusal(_ message: String) -> Response {
        Response(
            status: .forbidden,
            headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: message + "\n"))
        )
    }

    /// `response` with the headers that keep the page to itself.
    static func hardened(_ response: Response, host: String) -> Response {
        var response = response
        response.headers[.contentSecurityPolicy] =
            "default-src 'self'; connect-src ws://\(host); img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
        response.headers[.init("X-Frame-Options")!] = "DENY"
        response.headers[.init("Referrer-Policy")!] = "no-referrer"
        response.headers[.xContentTypeOptions] = "nosniff"
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
        return response
    }
}
