import Foundation
import Hummingbird
import HTTPTypes

/// Lets a request in only when it carries the app's ``LocalAccessKey``: as
/// `Authorization: Bearer …` (scripts), or as the cookie a browser was given.
///
/// A browser gets the cookie by opening the address `notetaker serve` printed: a `GET` of a
/// page with `?token=…` answers 303 to the same address without it, setting an `HttpOnly;
/// SameSite=Strict` cookie, so the key leaves the address bar and the history. Everything
/// else without the key answers 401 — JSON under `/api/`, a page saying where to find the
/// address elsewhere — and changes nothing.
struct AccessGuard<Context: RequestContext>: RouterMiddleware {
    let key: LocalAccessKey
    /// Whether the app is served over TLS (the cookie is then `Secure`).
    let secure: Bool
    /// Where the key is kept, for the page that asks for it; `nil` for a store in memory.
    let keyFile: String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = RoutedPath(request.uri.path)
        let cookieName = Self.cookieName(authority: request.head.authority)
        if !path.isAPI, request.method == .get || request.method == .head,
           let presented = request.uri.queryParameters["token"] {
            guard key.matches(presented) else { return unauthorized(path) }
            return enter(request, path: path, cookieName: cookieName)
        }
        guard presentsKey(request, cookieName: cookieName) else { return unauthorized(path) }
        return try await next(request, context)
    }

    /// Whether the request carries the key, in its header or one of its cookies.
    private func presentsKey(_ request: Request, cookieName: String) -> Bool {
        for authorization in request.headers[values: .authorization] {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer", key.matches(parts[1].trimmingCharacters(in: .whitespaces)) {
                return true
            }
        }
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == cookieName, key.matches(parts[1]) {
                    return true
                }
            }
        }
        return false
    }

    /// The 303 that trades the key in the address for a cookie.
    private func enter(_ request: Request, path: RoutedPath, cookieName: String) -> Response {
        var rest = URLComponents()
        rest.queryItems = request.uri.queryParameters
            .filter { $0.key != "token" }
            .map { URLQueryItem(name: String($0.key), value: String($0.value)) }
        let query = rest.queryItems?.isEmpty == false ? "?" + (rest.percentEncodedQuery ?? "") : ""
        var cookie = "\(cookieName)=\(key.value); Path=/; Max-Age=31536000; HttpOnly; SameSite=Strict"
        if secure { cookie += "; Secure" }
        return Response(status: .seeOther, headers: [
            .location: path.description + query, .setCookie: cookie, .cacheControl: "no-store",
        ])
    }

    private func unauthorized(_ path: RoutedPath) -> Response {
        let kept = keyFile.map { " It is kept in \($0), readable by you only." } ?? ""
        if path.isAPI {
            let message = "This app needs its key: send `Authorization: Bearer KEY`, the key `notetaker serve` printed in its address (…/?token=KEY).\(kept) Nothing was changed."
            let body = (try? JSONSerialization.data(withJSONObject: ["error": "unauthorized", "message": message], options: [.sortedKeys])) ?? Data()
            return Response(status: .unauthorized, headers: [
                .contentType: "application/json", .wwwAuthenticate: "Bearer realm=\"notetaker\"", .cacheControl: "no-store",
            ], body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
        return Response(status: .unauthorized, headers: [
            .contentType: "text/html; charset=utf-8", .wwwAuthenticate: "Bearer realm=\"notetaker\"", .cacheControl: "no-store",
        ], body: .init(byteBuffer: ByteBuffer(string: Self.page(keyFile: keyFile))))
    }

    /// The cookie's name, one per port: cookies are shared by every port of a host, so two
    /// apps on two ports (two stores) each keep their own.
    static func cookieName(authority: String?) -> String {
        guard let authority, let colon = authority.lastIndex(of: ":"),
              let port = Int(authority[authority.index(after: colon)...]), (0...65535).contains(port)
        else { return "notetaker-key" }
        return "notetaker-key-\(port)"
    }

    /// The page a browser sees without the key.
    static func page(keyFile: String?) -> String {
        let kept = keyFile.map { "<p>The key is kept in <code>\(HTMLSanitizer.escapeText($0))</code>, readable by you only. <code>notetaker serve --new-token</code> replaces it and shuts out every browser and script that had the old one.</p>" } ?? ""
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>NoteTaker needs its key</title>
            <meta name="viewport" content="width=device-width, initial-scale=1"></head>
            <body><main><h1>NoteTaker needs its key</h1>
            <p>Only the person who started <code>notetaker serve</code> may open these notes. Open the address it printed when it started: it ends in <code>/?token=</code> and the key. The browser then remembers the key, and the address bar loses it.</p>
            \(kept)
            </main></body></html>
            """
    }
}
