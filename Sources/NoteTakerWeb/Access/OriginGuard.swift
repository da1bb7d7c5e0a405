import Foundation
import Hummingbird
import HTTPTypes

/// Refuses requests that do not come from the app itself, before the key is even looked at.
///
/// - The `Host` must be a loopback name (`127.0.0.1`, `localhost`, `[::1]`), or the name the
///   app was told to listen on: a page on another site that rebinds its DNS name to this
///   machine sends its own name and is refused. (An app listening on every interface takes
///   any name; its key and TLS guard it.)
/// - A request carrying an `Origin` must come from the same scheme, host and port as its `Host`.
/// - For the API (as the router sees the path: ``RoutedPath``), a browser's `Sec-Fetch-Site`
///   must be `same-origin` or `none`, so another site cannot even embed an attachment; scripts
///   (curl, Python) send neither header and pass.
struct OriginGuard<Context: RequestContext>: RouterMiddleware {
    static var loopbackHosts: Set<String> { ["127.0.0.1", "localhost", "[::1]"] }

    let configuration: WebConfiguration

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let host = request.head.authority, accepts(host: host) else {
            throw WebAPIError(.forbidden, "forbidden_host", "This app answers only at the address `notetaker serve` printed. Open it there.")
        }
        if let origin = request.headers[.origin], origin != "\(configuration.scheme)://\(host.lowercased())" {
            throw WebAPIError(.forbidden, "forbidden_origin", "Requests from another site (\(origin)) are refused. Nothing was changed.")
        }
        if RoutedPath(request.uri.path).isAPI, let site = request.headers[.secFetchSite], !["same-origin", "none"].contains(site) {
            throw WebAPIError(.forbidden, "forbidden_origin", "Requests from another site are refused. Nothing was changed.")
        }
        return try await next(request, context)
    }

    /// Whether a `Host` header names this app: loopback, the host it listens on, or anything
    /// when it listens everywhere.
    func accepts(host: String) -> Bool {
        if Self.isLoopback(host: host) { return true }
        guard let name = Self.name(of: host) else { return false }
        if configuration.listensEverywhere { return true }
        let own = configuration.host.contains(":") && !configuration.host.hasPrefix("[") ? "[\(configuration.host)]" : configuration.host
        return name == Self.name(of: own)
    }

    /// Whether a `Host` header names this machine's loopback interface.
    static func isLoopback(host: String) -> Bool {
        name(of: host).map { loopbackHosts.contains(String($0)) } ?? false
    }

    /// The name of a `Host` header without its port, lowercased; `nil` when it is malformed.
    static func name(of host: String) -> Substring? {
        let lowered = host.lowercased()
        let name: Substring
        if lowered.hasPrefix("[") {
            guard let close = lowered.firstIndex(of: "]") else { return nil }
            name = lowered[...close]
            let rest = lowered[lowered.index(after: close)...]
            guard rest.isEmpty || (rest.first == ":" && Int(rest.dropFirst()) != nil) else { return nil }
        } else {
            let parts = lowered.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2, parts.count == 1 || Int(parts[1]) != nil else { return nil }
            name = parts[0]
        }
        return name.isEmpty ? nil : name
    }
}

extension HTTPField.Name {
    static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!
    static let serverTiming = HTTPField.Name("Server-Timing")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
}
