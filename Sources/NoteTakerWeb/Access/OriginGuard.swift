import Foundation
import Hummingbird
import HTTPTypes

/// Refuses requests that do not come from the app itself.
///
/// - The `Host` must be a loopback name (`127.0.0.1`, `localhost`, `[::1]`): a page on
///   another site that rebinds its DNS name to this machine sends its own name and is refused.
/// - A request carrying an `Origin` must come from the same scheme, host and port as its `Host`.
/// - For the API, a browser's `Sec-Fetch-Site` must be `same-origin` or `none`, so another site
///   cannot even embed an attachment; scripts (curl, Python) send neither header and pass.
struct OriginGuard<Context: RequestContext>: RouterMiddleware {
    static var loopbackHosts: Set<String> { ["127.0.0.1", "localhost", "[::1]"] }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let host = request.head.authority, Self.isLoopback(host: host) else {
            throw WebAPIError(.forbidden, "forbidden_host", "This app answers only on 127.0.0.1 or localhost. Open it at the address `notetaker serve` printed.")
        }
        if let origin = request.headers[.origin], origin != "http://\(host.lowercased())" {
            throw WebAPIError(.forbidden, "forbidden_origin", "Requests from another site (\(origin)) are refused. Nothing was changed.")
        }
        if request.uri.path.hasPrefix("/api/"), let site = request.headers[.secFetchSite], !["same-origin", "none"].contains(site) {
            throw WebAPIError(.forbidden, "forbidden_origin", "Requests from another site are refused. Nothing was changed.")
        }
        return try await next(request, context)
    }

    /// Whether a `Host` header names this machine's loopback interface.
    static func isLoopback(host: String) -> Bool {
        let lowered = host.lowercased()
        let name: Substring
        if lowered.hasPrefix("[") {
            guard let close = lowered.firstIndex(of: "]") else { return false }
            name = lowered[...close]
            let rest = lowered[lowered.index(after: close)...]
            guard rest.isEmpty || (rest.first == ":" && Int(rest.dropFirst()) != nil) else { return false }
        } else {
            let parts = lowered.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2, parts.count == 1 || Int(parts[1]) != nil else { return false }
            name = parts[0]
        }
        return loopbackHosts.contains(String(name))
    }
}

extension HTTPField.Name {
    static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!
    static let serverTiming = HTTPField.Name("Server-Timing")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
}
