import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import HummingbirdTesting
@testable import NoteTakerServer
import NoteTakerServerTestSupport
import NoteTakerSyncProtocol
import Testing

/// Who a log-in comes from, behind a reverse proxy or not: the proxy's own address must not
/// lock everyone out, and no client may pick its own address.
@Suite("Client addresses and the log-in throttle")
struct ClientAddressTests {
    static let proxies = ClientAddressRule(trustedProxies: ["127.0.0.1", "10.0.0.0/8", "fd00::/8"].compactMap(AddressBlock.init))

    @Test("the client is the first hop from the right that is not a trusted proxy", arguments: [
        // (peer, Forwarded, X-Forwarded-For, the client counted)
        ("198.51.100.7", [], [], "198.51.100.7"),
        ("198.51.100.7", [], ["203.0.113.9"], "198.51.100.7"),                       // an untrusted peer's header is ignored
        ("127.0.0.1", [], [], "127.0.0.1"),                                          // the proxy itself, with no header
        ("127.0.0.1", [], ["203.0.113.9"], "203.0.113.9"),
        ("127.0.0.1", [], ["1.2.3.4, 203.0.113.9"], "203.0.113.9"),                  // a client's forged hop stays on the left
        ("127.0.0.1", [], ["203.0.113.9, 10.1.2.3"], "203.0.113.9"),                 // two proxies
        ("127.0.0.1", [], ["203.0.113.9", "10.1.2.3"], "203.0.113.9"),               // the same in two headers
        ("127.0.0.1", [], ["garbage"], "127.0.0.1"),
        ("127.0.0.1", ["for=192.0.2.60;proto=http;by=203.0.113.43"], ["1.1.1.1"], "192.0.2.60"),  // Forwarded first
        ("127.0.0.1", ["for=\"[2001:db8:cafe:1::17]:4711\""], [], "2001:db8:cafe:1::/64"),
        ("127.0.0.1", ["For=192.0.2.61:8080, for=10.0.0.2"], [], "192.0.2.61"),
        ("127.0.0.1", ["for=unknown"], [], "127.0.0.1"),
        ("2001:db8:1:2:aaaa:bbbb:cccc:dddd", [], [], "2001:db8:1:2::/64"),          // IPv6 counted by its /64
        ("2001:db8:1:2::1", [], [], "2001:db8:1:2::/64"),
        ("::ffff:198.51.100.7", [], [], "198.51.100.7"),                             // IPv4 mapped into IPv6
        ("fd00::5", [], ["::ffff:10.9.9.9, 198.51.100.8"], "198.51.100.8"),
    ])
    func rule(peer: String, forwarded: [String], forwardedFor: [String], client: String) {
        #expect(Self.proxies.client(peer: peer, forwarded: forwarded, forwardedFor: forwardedFor) == client)
    }

    @Test("without --trusted-proxy no header is believed")
    func direct() {
        #expect(ClientAddressRule.direct.client(peer: "127.0.0.1", forwarded: ["for=1.2.3.4"], forwardedFor: ["5.6.7.8"]) == "127.0.0.1")
        #expect(ClientAddressRule.direct.client(peer: nil, forwarded: [], forwardedFor: []) == "unknown")
    }

    @Test("address blocks: what --trusted-proxy takes and refuses")
    func blocks() throws {
        for text in ["127.0.0.1", "10.0.0.0/8", "0.0.0.0/0", "::1", "2001:db8::/32", "[::1]", "fd00::/128"] {
            #expect(AddressBlock(text) != nil, "\(text)")
        }
        for text in ["", "10.0.0.0/33", "::/129", "10.0.0.0/-1", "localhost", "10.0.0.0/8/8", "1.2.3", String(repeating: "1", count: 100)] {
            #expect(AddressBlock(text) == nil, "\(text)")
        }
        let block = try #require(AddressBlock("10.1.0.0/16"))
        let inside = try #require(IPAddress("10.1.200.3")), outside = try #require(IPAddress("10.2.0.1")), v6 = try #require(IPAddress("::a01:1"))
        #expect(block.contains(inside) && !block.contains(outside) && !block.contains(v6))
    }

    @Test("behind a trusted proxy one client's bad log-ins do not lock out another")
    func proxiedThrottle() async throws {
        let server = try await TestServer()
        _ = try await server.service.addAccount(Credentials(username: "ada", password: "correct horse"))
        let proxy = try #require(AddressBlock("127.0.0.1"))
        try await server.test(.live, trustedProxies: [proxy]) { client in
            for index in 0..<21 {
                let guess = try await client.send(.post, "/v1/sessions", json: Credentials(username: "user\(index)", password: "wrong password"),
                                                  headers: [.xForwardedFor: "203.0.113.66"])
                #expect(guess.status == (index < 20 ? .unauthorized : .tooManyRequests), "guess \(index)")
            }
            let owner = try await client.send(.post, "/v1/sessions", json: Credentials(username: "ada", password: "correct horse"),
                                              headers: [.xForwardedFor: "198.51.100.1"])
            #expect(owner.status == .created, "another client through the same proxy still logs in")
            let sameNetwork = try await client.send(.post, "/v1/sessions", json: Credentials(username: "ada", password: "correct horse"),
                                                    headers: [.forwarded: "for=\"[2001:db8:5:6::1]\""])
            #expect(sameNetwork.status == .created)
        }
    }

    @Test("without a trusted proxy a forged header earns no more guesses, and an IPv6 network shares its count")
    func forgedHeadersAreIgnored() async throws {
        let server = try await TestServer()
        _ = try await server.service.addAccount(Credentials(username: "ada", password: "correct horse"))
        try await server.test(.live) { client in
            for index in 0..<21 {
                let guess = try await client.send(.post, "/v1/sessions", json: Credentials(username: "user\(index)", password: "wrong password"),
                                                  headers: [.xForwardedFor: "203.0.113.\(index)"])
                #expect(guess.status == (index < 20 ? .unauthorized : .tooManyRequests), "guess \(index)")
            }
        }
        for index in 0..<20 {
            await #expect(throws: SyncServerError.wrongCredentials) {
                try await server.service.login(Credentials(username: "u\(index)", password: "wrong password"),
                                               from: ClientAddressRule.direct.client(peer: "2001:db8:7:7::\(index + 1)", forwarded: [], forwardedFor: []))
            }
        }
        await #expect(throws: SyncServerError.self) {
            try await server.service.login(Credentials(username: "ada", password: "correct horse"), from: "2001:db8:7:7::/64")
        }
    }

    @Test("a name no account could have is refused before the throttle remembers it")
    func hugeNamesAreNotRemembered() async throws {
        let server = try await TestServer()
        let name = String(repeating: "n", count: 7_000_000)
        try await server.test { client in
            for _ in 0..<3 {
                let response = try await client.send(.post, "/v1/sessions", json: Credentials(username: name, password: "wrong password"))
                #expect(response.status == .badRequest)
            }
            let longPassword = try await client.send(.post, "/v1/sessions", json: Credentials(username: "ada", password: String(repeating: "p", count: 5000)))
            #expect(longPassword.status == .unauthorized)
        }
        for (bad, _) in [("", 0), (String(repeating: "a", count: 65), 0), ("a b", 0), ("é", 0), ("../x", 0)] {
            await #expect(throws: SyncServerError.self) { try await server.service.login(Credentials(username: bad, password: "long enough"), from: "192.0.2.1") }
        }
        if let throttle = server.service.throttle as? LoginThrottle {
            #expect(await throttle.remembered == 0)
        }
    }

    @Test("a wrong current password is throttled like a failed log-in")
    func passwordChangesAreThrottled() async throws {
        let server = try await TestServer()
        let (account, token) = try await server.account()
        for _ in 0..<5 {
            await #expect(throws: SyncServerError.self) {
                try await server.service.changePassword(PasswordChange(currentPassword: "guess guess", newPassword: "new password 1"),
                                                        account: account, token: token, from: "203.0.113.8")
            }
        }
        do {
            try await server.service.changePassword(PasswordChange(currentPassword: "correct horse", newPassword: "new password 1"),
                                                    account: account, token: token, from: "203.0.113.8")
            Issue.record("the sixth try was not made to wait")
        } catch {
            #expect(error.code == .tooManyRequests)
        }
        try await server.service.changePassword(PasswordChange(currentPassword: "correct horse", newPassword: "new password 1"),
                                                account: account, token: token, from: "198.51.100.4")
    }
}

@Suite("Connections per address")
struct ConnectionCountTests {
    @Test("an address holds at most the limit; a trusted proxy and a closed connection free places; an IPv6 /64 is one address")
    func limits() throws {
        let counts = ConnectionCounts(limit: 2, trustedProxies: [try #require(AddressBlock("10.0.0.1"))])
        let client = try SocketAddress(ipAddress: "198.51.100.9", port: 1)
        let first = counts.admit(client), second = counts.admit(client)
        #expect(counts.admit(client) == .refused)
        guard case .admitted(let key?) = first, case .admitted = second else { Issue.record("not admitted"); return }
        counts.release(key)
        #expect(counts.admit(client) != .refused)
        #expect(counts.admit(try SocketAddress(ipAddress: "198.51.100.10", port: 1)) != .refused, "another address has its own places")

        for port in 0..<10 { #expect(counts.admit(try SocketAddress(ipAddress: "10.0.0.1", port: port)) == .admitted(key: nil)) }
        #expect(counts.admit(try SocketAddress(ipAddress: "2001:db8:1:1::1", port: 1)) != .refused)
        #expect(counts.admit(try SocketAddress(ipAddress: "2001:db8:1:1::2", port: 1)) != .refused)
        #expect(counts.admit(try SocketAddress(ipAddress: "2001:db8:1:1:ffff::3", port: 1)) == .refused)
        #expect(counts.held["2001:db8:1:1::/64"] == 2 && counts.held["10.0.0.1"] == nil)
    }
}
