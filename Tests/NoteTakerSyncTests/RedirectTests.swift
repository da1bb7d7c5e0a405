import Foundation
import Glibc
import NoteTakerSyncProtocol
import Testing
@testable import NoteTakerSync

/// A redirect never takes the session token, or a batch of notes, to another address, and an
/// `https://` proxy is refused in words rather than gone around.
@Suite("Redirects and unusable proxies")
struct RedirectTests {
    @Test("a redirect to another origin, or from https to http, is not followed; the error names where it pointed",
          arguments: [307, 308, 302, 301, 303])
    func redirectsAreNotFollowed(status: Int) async throws {
        let elsewhere = try OneAnswerServer(response: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")
        let target = "http://127.0.0.1:\(elsewhere.port)/v1/records/modify"
        let redirecting = try OneAnswerServer(response: "HTTP/1.1 \(status) Moved\r\nLocation: \(target)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        let transport = try HTTPSyncTransport(server: try #require(URL(string: "http://127.0.0.1:\(redirecting.port)")), token: "secret-session-token")
        do {
            _ = try await transport.modify(ModifyRequest(changes: [], deviceId: UUID()))
            Issue.record("a redirect was followed")
        } catch {
            guard case .server(let code, let message) = error else { Issue.record("\(error)"); return }
            #expect(code == "redirected" && message.contains(target), "\(message)")
        }
        #expect(redirecting.requestHead?.contains("secret-session-token") == true, "the server asked was the one named")
        try await Task.sleep(for: .milliseconds(200))
        #expect(elsewhere.requestHead == nil, "nothing reached the address the redirect named")
    }

    @Test("an https:// proxy is refused with words a person can act on; no request goes around it")
    func httpsProxiesAreRefused() throws {
        let environment = ProxyEnvironment(["https_proxy": "https://ada:secret@proxy.example:443", "http_proxy": "https://proxy.example"])
        let server = try #require(URL(string: "https://notes.example.com"))
        #expect(environment.proxy(for: server) == nil)
        let refusal = try #require(environment.refusal(for: server))
        #expect(refusal.contains("https_proxy") && refusal.contains("http://HOST:PORT") && !refusal.contains("secret"))
        #expect(environment.refusal(for: try #require(URL(string: "http://notes.example.com"))) != nil)
        #expect(environment.refusal(for: try #require(URL(string: "https://127.0.0.1:8471"))) == nil, "this machine is reached directly")
        #expect(ProxyEnvironment(["https_proxy": "http://proxy.example:3128"]).refusal(for: server) == nil)
    }
}

/// A loopback listener that answers its first request with `response` and keeps the request's head.
private final class OneAnswerServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var head: String?

    /// The head of the request it received, if any.
    var requestHead: String? { lock.withLock { head } }

    init(response: String) throws {
        (listener, port) = try Loopback.listen()
        Thread.detachNewThread { [self] in serve(response) }
    }

    private func serve(_ response: String) {
        defer { close(listener) }
        guard let connection = Loopback.acceptOne(listener) else { return }
        defer { close(connection) }
        let text = Loopback.readHead(connection)
        lock.withLock { head = text }
        // The body too, so that the answer is not cut off by a reset.
        let declared = text.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
        var remaining = declared.flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        var buffer = [UInt8](repeating: 0, count: 4096)
        while remaining > 0 {
            let count = recv(connection, &buffer, min(buffer.count, remaining), 0)
            guard count > 0 else { break }
            remaining -= count
        }
        Loopback.write(connection, response)
    }
}
