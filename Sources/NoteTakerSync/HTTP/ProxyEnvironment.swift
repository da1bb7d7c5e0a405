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
    /// Why the proxy for `https://` servers, or for `http://` ones, cannot be used.
    var httpsRefusal, httpRefusal: String?

    /// The settings in `environment`.
    init(_ environment: [String: String]) {
        let httpsAddress = environment["https_proxy"] ?? environment["HTTPS_PROXY"]
        https = Self.proxy(httpsAddress)
        httpsRefusal = Self.refusal(httpsAddress, variable: "https_proxy")
        // Only the lowercase name: a web server's CGI sets HTTP_PROXY from a request header.
        http = Self.proxy(environment["http_proxy"])
        httpRefusal = Self.refusal(environment["http_proxy"], variable: "http_proxy")
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

    /// Why the proxy for `server` cannot be used, when the environment names one that cannot:
    /// sync then stops with these words rather than going around the proxy.
    func refusal(for server: URL) -> String? {
        let host = (server.host ?? "").lowercased()
        guard !HTTPSyncTransport.isLoopback(host), !bypasses(host) else { return nil }
        return server.scheme?.lowercased() == "https" ? httpsRefusal : httpRefusal
    }

    /// An `https://` proxy address: one reached over TLS, which the HTTP client cannot do.
    static func refusal(_ address: String?, variable: String) -> String? {
        guard let address = address?.trimmingCharacters(in: .whitespaces), address.lowercased().hasPrefix("https://") else { return nil }
        return "\(variable) names a proxy reached over TLS (\(address.split(separator: "@").last ?? "")), which sync cannot use, and "
            + "it will not go around it. Give the proxy as http://HOST:PORT (the connection to the sync server inside it "
            + "stays encrypted), or add the server to no_proxy."
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
        case "http":
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
