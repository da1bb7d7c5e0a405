import AsyncHTTPClient
import Foundation
import Glibc
import NoteTakerSyncProtocol
import Testing
@testable import NoteTakerSync

/// Sync goes through the proxy the environment names, as curl (and URLSession on Linux) read it.
@Suite("Proxies from the environment")
struct ProxyEnvironmentTests {
    private let environment = ProxyEnvironment([
        "https_proxy": "http://ada:p%40ss@proxy.example:3128",
        "http_proxy": "plain.example:8080",
        "HTTP_PROXY": "ignored.example:1",
        "no_proxy": "internal.example, .corp.example",
    ])

    @Test func eachSchemeGoesThroughItsOwnProxy() throws {
        #expect(environment.proxy(for: try #require(URL(string: "https://notes.example.com"))) ==
                .server(host: "proxy.example", port: 3128, authorization: .basic(username: "ada", password: "p@ss")))
        #expect(environment.proxy(for: try #require(URL(string: "http://notes.example.com:8080"))) ==
                .server(host: "plain.example", port: 8080))
    }

    @Test func hostsInNoProxyAndThisMachineAreReachedDirectly() throws {
        for address in ["https://internal.example", "https://corp.example", "https://notes.corp.example", "http://127.0.0.1:8080", "http://localhost"] {
            #expect(environment.proxy(for: try #require(URL(string: address))) == nil, "\(address)")
        }
        #expect(environment.proxy(for: try #require(URL(string: "https://notinternal.example"))) != nil)
        #expect(ProxyEnvironment(["https_proxy": "proxy.example:3128", "no_proxy": "*"])
            .proxy(for: try #require(URL(string: "https://notes.example.com"))) == nil)
    }

    @Test func addressesAreReadAsCurlReadsThem() {
        #expect(ProxyEnvironment.proxy("proxy.example") == .server(host: "proxy.example", port: 1080))
        #expect(ProxyEnvironment.proxy("socks5://tunnel.example:1081") == .socksServer(host: "tunnel.example", port: 1081))
        #expect(ProxyEnvironment(["HTTPS_PROXY": "upper.example:3128"]).https == .server(host: "upper.example", port: 3128))
        for unreadable in [nil, "", "  ", "ftp://proxy.example:21", "http://"] {
            #expect(ProxyEnvironment.proxy(unreadable) == nil, "\(unreadable ?? "nil")")
        }
    }

    /// A client with a proxy opens its tunnel through the proxy, which here answers the
    /// tunnelled request itself, for a server whose name does not even resolve.
    @Test func aRequestGoesThroughTheProxy() async throws {
        let body = #"{"status":"ok","apiVersion":"v1","serverId":"answered by the proxy"}"#
        let proxy = try TunnelProxy(answer: body)
        let client = SyncHTTPClient.makeClient(proxy: .server(host: "127.0.0.1", port: proxy.port))
        do {
            let response = try await client.execute(HTTPClientRequest(url: "http://notes.invalid/v1/health"), timeout: .seconds(30))
            let health = try JSONDecoder().decode(HealthResponse.self, from: Data(try await response.body.collect(upTo: 65_536).readableBytesView))
            #expect(health.serverId == "answered by the proxy")
            #expect(proxy.tunnelRequest == "CONNECT notes.invalid:80 HTTP/1.1")
        } catch {
            try await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }
}

/// An HTTP proxy for one connection on a loopback port: it takes a `CONNECT`, then answers the
/// request sent through the tunnel itself. Each read waits at most 30 seconds.
private final class TunnelProxy: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var firstLine = ""

    /// The request line that opened the tunnel.
    var tunnelRequest: String { lock.withLock { firstLine } }

    init(answer body: String) throws {
        (listener, port) = try Loopback.listen()
        let response = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
        Thread.detachNewThread { [self] in serve(response) }
    }

    private func serve(_ response: String) {
        defer { close(listener) }
        guard let connection = Loopback.acceptOne(listener) else { return }
        defer { close(connection) }
        let connect = Loopback.readHead(connection)
        lock.withLock { firstLine = connect.components(separatedBy: "\r\n").first ?? "" }
        Loopback.write(connection, "HTTP/1.1 200 Connection established\r\n\r\n")
        _ = Loopback.readHead(connection)
        Loopback.write(connection, response)
    }
}
