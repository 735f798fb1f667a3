import Hummingbird
import HummingbirdWebSocket
import TextMeasure

/// The page's files, built into the binary, and the font files the daemon measured with.
enum PageRoutes {
    /// One of the page's files: its bytes and media type.
    struct Asset: Sendable {
        var bytes: [UInt8]
        var type: String
    }

    /// The page's files by the name the page asks for them by.
    static let assets: [String: Asset] = [
        "index.html": Asset(bytes: PackageResources.index_html, type: "text/html; charset=utf-8"),
        "page.css": Asset(bytes: PackageResources.page_css, type: "text/css; charset=utf-8"),
        "main.js": Asset(bytes: PackageResources.main_js, type: "text/javascript; charset=utf-8"),
        "rpc.js": Asset(bytes: PackageResources.rpc_js, type: "text/javascript; charset=utf-8"),
        "live-window.js": Asset(bytes: PackageResources.live_window_js, type: "text/javascript; charset=utf-8"),
        "table-view.js": Asset(bytes: PackageResources.table_view_js, type: "text/javascript; charset=utf-8"),
        "list-view.js": Asset(bytes: PackageResources.list_view_js, type: "text/javascript; charset=utf-8"),
        "editors.js": Asset(bytes: PackageResources.editors_js, type: "text/javascript; charset=utf-8"),
        "section-headers.js": Asset(
            bytes: PackageResources.section_headers_js,
            type: "text/javascript; charset=utf-8"
        ),
    ]

    /// The page, its files and `/font` (behind the access middleware the router already has).
    static func add(to router: Router<BasicWebSocketRequestContext>) {
        router.get("/") { _, _ in response(for: "index.html") }
        router.get("/favicon.ico") { _, _ in Response(status: .noContent) }
        router.get("/page/{file}") { _, context in
            response(for: context.parameters.get("file") ?? "")
        }
        // A font file the daemon named in a layout reply (`fonts`), read only beneath a font
        // directory fontconfig reads, as the daemon reads them.
        router.get("/font") { request, _ in
            guard let path = request.uri.queryParameters.get("file") else {
                return text(.badRequest, "Name the font file: /font?file=PATH.")
            }
            do {
                let bytes = try FontFile.read(path)
                return Response(
                    status: .ok,
                    headers: [.contentType: fontType(path), .cacheControl: "private, max-age=3600"],
                    body: .init(byteBuffer: ByteBuffer(bytes: bytes))
                )
            } catch {
                return text(.notFound, "\(error)")
            }
        }
    }

    static func response(for name: String) -> Response {
        guard let asset = assets[name] else { return text(.notFound, "The page has no file \(name).") }
        return Response(
            status: .ok,
            headers: [.contentType: asset.type],
            body: .init(byteBuffer: ByteBuffer(bytes: asset.bytes))
        )
    }

    static func text(_ status: HTTPResponse.Status, _ message: String) -> Response {
        Response(
            status: status,
            headers: [.contentType: "text/plain; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: message + "\n"))
        )
    }

    static func fontType(_ path: String) -> String {
        let lower = path.lowercased()
        if lower.hasSuffix(".otf") { return "font/otf" }
        if lower.hasSuffix(".woff2") { return "font/woff2" }
        if lower.hasSuffix(".woff") { return "font/woff" }
        if lower.hasSuffix(".ttc") { return "font/collection" }
        return "font/ttf"
    }
}
