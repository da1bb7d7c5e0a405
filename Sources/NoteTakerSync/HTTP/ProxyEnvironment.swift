import AsyncHTTPClient
import Foundation

/// The proxy settings of the environment, read as curl reads them (and as URLSession on Linux
/// did for sync before): `https_proxy` (or `HTTPS_PROXY`) for `https://` servers,
/// `http_proxy` for `http://` ones, and `no_proxy` (or `NO_PROXY`) for the hosts reached
/// directly. A server on this machine is always reached directly.
struct ProxyEnvironment: Sendable {
    /// The proxy for `https://` servers.
    var https: HTTPClient.Configuration.Proxy?
    /// The proxy for `http://` servers.
    var http: HTTPClient.Configuration.Proxy?
    /// Host names (and domains, with or without a leading dot) reached directly; `*` for all.
    var bypassed: [String]

    /// The settings in `environment`.
    init(_ environment: [String: String]) {
        https = Self.proxy(environment["https_proxy"] ?? environment["HTTPS_PROXY"])
        // Only the lowercase name: a web server's CGI sets HTTP_PROXY from a request header.
        http = Self.proxy(environment["http_proxy"])
        bypassed = (environment["no_proxy"] ?? environment["NO_PROXY"] ?? "")
            .split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty }
    }

    /// The proxy to reach `server` through, if any.
    func proxy(for server: URL) -> HTTPClient.Configuration.Proxy? {
        let host = (server.host ?? "").lowercased()
        guard !HTTPSyncTransport.isLoopback(host), !bypasses(host) else { return nil }
        return server.scheme?.lowercased() == "https" ? https : http
    }

    private func bypasses(_ host: String) -> Bool {
        bypassed.contains { entry in
            let domain = entry.hasPrefix(".") ? String(entry.dropFirst()) : entry
            return entry == "*" || host == domain || host.hasSuffix("." + domain)
        }
    }

    /// A proxy from its address: `http://[user:password@]host[:port]`, `socks5://host[:port]`,
    /// or `host[:port]` (an HTTP proxy). The port is 1080 when none is given, as in curl.
    static func proxy(_ address: String?) -> HTTPClient.Configuration.Proxy? {
        guard let address = address?.trimmingCharacters(in: .whitespaces), !address.isEmpty,
              let url = URL(string: address.contains("://") ? address : "http://" + address), let host = url.host, !host.isEmpty
        else { return nil }
        let port = url.port ?? 1080
        switch url.scheme?.lowercased() {
        case "socks5", "socks5h", "socks":
            return .socksServer(host: host, port: port)
        case "http", "https":
            let authorization = url.user.map { user in
                HTTPClient.Authorization.basic(username: user.removingPercentEncoding ?? user,
                                               password: url.password.flatMap { $0.removingPercentEncoding } ?? "")
            }
            return .server(host: host, port: port, authorization: authorization)
        default:
            return nil
        }
    }
}
