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
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, 4) == 0 && getsockname(listener, pointer, &length) == 0
            }
        }
        guard bound else { throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "cannot listen on a loopback port"]) }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in serve(response) }
    }

    private func serve(_ response: String) {
        defer { close(listener) }
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { return }
        defer { close(connection) }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !received.ends(with: Array("\r\n\r\n".utf8)) {
            let count = recv(connection, &buffer, 1, 0)
            guard count > 0 else { break }
            received += buffer.prefix(count)
        }
        let text = String(decoding: received, as: UTF8.self)
        lock.withLock { head = text }
        // The body too, so that the answer is not cut off by a reset.
        let declared = text.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
        var remaining = declared.flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        while remaining > 0 {
            let count = recv(connection, &buffer, min(buffer.count, remaining), 0)
            guard count > 0 else { break }
            remaining -= count
        }
        _ = response.utf8CString.withUnsafeBufferPointer { send(connection, $0.baseAddress, $0.count - 1, 0) }
    }
}

private extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}
