import Foundation
import NoteTakerKit
import Testing
@testable import NoteTakerSync

/// The server does not keep connections nobody uses: idle ones, or ones whose request
/// headers never finish (a client that dawdles to use up the server's files).
@Suite("Server connections")
struct ServerConnectionTests {
    @Test("a connection with half-sent headers is closed by the server")
    func halfSentHeadersAreClosed() async throws {
        let server = try await LiveServer.start(idleTimeoutSeconds: 1)
        let socket = try LoopbackSocket(port: try #require(server.url.port))
        socket.send("GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        // The server closes it: reading ends (0 bytes) instead of waiting the full 20 s.
        #expect(socket.readUntilClosed(timeoutSeconds: 20) == .closed)
        // The server still answers.
        #expect(try await HTTPSyncTransport(server: server.url, token: nil).health().serverId.isEmpty == false)
        await server.stop()
    }

    @Test("a client trickling its headers a byte at a time is closed at the header deadline")
    func trickledHeadersAreClosed() async throws {
        let server = try await LiveServer.start(idleTimeoutSeconds: 60, headerTimeoutSeconds: 2)
        let socket = try LoopbackSocket(port: try #require(server.url.port))
        socket.send("GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        // A byte every 300 ms keeps the connection from ever being idle; the deadline closes it.
        #expect(socket.trickleUntilClosed(everyMilliseconds: 300, timeoutSeconds: 20) == .closed)
        // A normal client, and a push stream outliving the deadline, are not affected.
        #expect(try await HTTPSyncTransport(server: server.url, token: nil).health().serverId.isEmpty == false)
        await server.stop()
    }

    @Test("a body sent a byte at a time is closed at the deadline, however large it says it is; a steady one is not")
    func trickledBodiesAreClosed() async throws {
        let server = try await LiveServer.start(idleTimeoutSeconds: 60, headerTimeoutSeconds: 2)
        let port = try #require(server.url.port)
        let slow = try LoopbackSocket(port: port)
        slow.send("POST /v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n{")
        #expect(slow.trickleUntilClosed(everyMilliseconds: 300, timeoutSeconds: 20) == .closed)

        // A body arriving steadily for longer than the deadline is read whole and answered: 8 KB
        // every 300 ms earns 8 s each, far more than the wait between them even on a busy machine.
        let steady = try LoopbackSocket(port: port)
        let body = "{\"username\": \"nobody\", \"password\": \"" + String(repeating: "p", count: 60) + "\"}"
        let piece = String(repeating: " ", count: 8192)
        steady.send("POST /v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count + 10 * piece.utf8.count)\r\n\r\n")
        let start = Date()
        for _ in 0..<10 {
            steady.send(piece)
            try await Task.sleep(for: .milliseconds(300))
        }
        steady.send(body)
        #expect(Date().timeIntervalSince(start) > 2, "the body took longer than the head's deadline")
        #expect(steady.readStatus(timeoutSeconds: 20) == 401, "read whole and answered: no such account")
        #expect(try await HTTPSyncTransport(server: server.url, token: nil).health().serverId.isEmpty == false)
        await server.stop()
    }
}

/// A plain TCP connection to a loopback port.
struct LoopbackSocket {
    enum Outcome: Equatable { case closed, timedOut, failed }
    let descriptor: Int32

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0, "cannot connect to port \(port)")
    }

    func send(_ text: String) {
        _ = text.utf8CString.withUnsafeBufferPointer { Glibc.send(descriptor, $0.baseAddress, $0.count - 1, 0) }
    }

    /// Sends one byte every `everyMilliseconds` until the peer closes the connection, or
    /// `timeoutSeconds` pass.
    func trickleUntilClosed(everyMilliseconds: Int, timeoutSeconds: Int) -> Outcome {
        var timeout = timeval(tv_sec: 0, tv_usec: Int(everyMilliseconds) * 1_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        defer { close(descriptor) }
        let deadline = Date().addingTimeInterval(TimeInterval(timeoutSeconds))
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            send("a")
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count == 0 { return .closed }
            if count < 0 && errno != EAGAIN && errno != EWOULDBLOCK { return errno == ECONNRESET || errno == EPIPE ? .closed : .failed }
        }
        return .timedOut
    }

    /// The status of the answer the peer sends within `timeoutSeconds` (0 when none); closes.
    func readStatus(timeoutSeconds: Int) -> Int {
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        guard count > 12 else { return 0 }
        return Int(String(decoding: buffer[9..<12], as: UTF8.self)) ?? 0
    }

    /// Reads until the peer closes the connection, or `timeoutSeconds` pass.
    func readUntilClosed(timeoutSeconds: Int) -> Outcome {
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count == 0 { return .closed }
            if count < 0 { return errno == EAGAIN || errno == EWOULDBLOCK ? .timedOut : .failed }
        }
    }
}
