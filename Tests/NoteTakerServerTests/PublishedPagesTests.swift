import Foundation
import Hummingbird
import HummingbirdTesting
import HTTPTypes
import NoteTakerServer
import NoteTakerSyncProtocol
import Testing

/// Published pages on the server (docs/sharing.md §5.3): an account puts, lists, replaces and
/// deletes its sealed pages; anyone fetches one by id, and the page that opens it. On SQLite,
/// and on PostgreSQL under `NOTETAKER_TEST_STORAGE=postgres`.
@Suite("Published pages")
struct PublishedPagesTests {
    /// A page id; `seed` makes each differ.
    static func pageID(_ seed: UInt8) -> String { Base64URL.encode(Data(repeating: seed, count: 16)) }

    /// Bytes shaped as a sealed page (the server cannot open one, only check its shape).
    static func blob(_ size: Int, byte: UInt8 = 7) -> Data { Data("NTP1".utf8) + Data(repeating: byte, count: size - 4) }

    private func put(_ client: some TestClientProtocol, _ id: String, _ blob: Data, token: String?) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "application/octet-stream"]
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await client.execute(uri: "/v1/published/\(id)", method: .put, headers: headers, body: ByteBuffer(data: blob))
    }

    @Test("a page put is given to anyone by id, never cached or indexed; listed to its account, replaced, then deleted for good, its bytes counted meanwhile")
    func lifecycle() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let (account, token) = try await server.account("ada")
            let before = try await server.service.status(of: account).usedBytes
            let id = Self.pageID(1)
            #expect(try await put(client, id, Self.blob(1_000), token: token).status == .noContent)
            #expect(try await server.service.status(of: account).usedBytes == before + 1_000)

            let fetched = try await client.send(.get, "/v1/published/\(id)")
            #expect(fetched.status == .ok)
            #expect(Data(buffer: fetched.body) == Self.blob(1_000))
            #expect(fetched.headers[.cacheControl] == "no-store")
            #expect(fetched.headers[HTTPField.Name("X-Robots-Tag")!]?.contains("noindex") == true)

            let listed = try await client.send(.get, "/v1/published", token: token).decode([PublishedPageSummary].self)
            #expect(listed.map(\.id) == [id] && listed.map(\.size) == [1_000])

            #expect(try await put(client, id, Self.blob(400, byte: 9), token: token).status == .noContent)
            #expect(Data(buffer: try await client.send(.get, "/v1/published/\(id)").body) == Self.blob(400, byte: 9))
            #expect(try await server.service.status(of: account).usedBytes == before + 400)

            #expect(try await client.send(.delete, "/v1/published/\(id)", token: token).status == .noContent)
            #expect(try await client.send(.get, "/v1/published/\(id)").status == .notFound)
            #expect(try await client.send(.delete, "/v1/published/\(id)", token: token).status == .notFound)
            #expect(try await client.send(.get, "/v1/published", token: token).decode([PublishedPageSummary].self).isEmpty)
            #expect(try await server.service.status(of: account).usedBytes == before)
        }
    }

    @Test("what is not a sealed page, a malformed id, a page over 25 MiB, no session, or another account's id is refused, changing nothing")
    func refusals() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let (ada, token) = try await server.account("ada")
            let (_, grace) = try await server.account("grace")
            let id = Self.pageID(2)
            #expect(try await put(client, id, Self.blob(100), token: token).status == .noContent)
            let used = try await server.service.status(of: ada).usedBytes

            for blob in [Data("<html>plain</html>".utf8), Data("NTP1".utf8) + Data(count: 27), Data(), Data("NTP2".utf8) + Data(count: 40)] {
                let answer = try await put(client, Self.pageID(3), blob, token: token)
                #expect(answer.status == .badRequest)
                #expect(try answer.decode(APIErrorBody.self).message.contains("NTP1"))
            }
            let tooLarge = try await put(client, Self.pageID(3), Self.blob(SyncLimits.maxPublishedBytes + 1), token: token)
            #expect(tooLarge.status == .contentTooLarge)
            for malformed in ["short", Self.pageID(4) + "A", String(Self.pageID(4).dropLast()) + "B", "AAAAAAAAAAAAAAAAAAAA%2B"] {
                #expect(try await put(client, malformed, Self.blob(100), token: token).status == .badRequest, "\(malformed)")
                #expect(try await client.send(.get, "/v1/published/\(malformed)").status == .badRequest, "\(malformed)")
            }
            #expect(try await put(client, Self.pageID(3), Self.blob(100), token: nil).status == .unauthorized)
            #expect(try await client.send(.get, "/v1/published").status == .unauthorized)
            #expect(try await client.send(.delete, "/v1/published/\(id)").status == .unauthorized)

            // Another account can neither take nor delete ada's page.
            let taken = try await put(client, id, Self.blob(200, byte: 1), token: grace)
            #expect(taken.status == .conflict)
            #expect(try taken.decode(APIErrorBody.self).error == .pageTaken)
            #expect(try await client.send(.delete, "/v1/published/\(id)", token: grace).status == .notFound)
            #expect(Data(buffer: try await client.send(.get, "/v1/published/\(id)").body) == Self.blob(100))
            #expect(try await client.send(.get, "/v1/published", token: grace).decode([PublishedPageSummary].self).isEmpty)
            #expect(try await client.send(.get, "/v1/published", token: token).decode([PublishedPageSummary].self).map(\.id) == [id])
            #expect(try await server.service.status(of: ada).usedBytes == used)
        }
    }

    @Test("a page counts against the account's quota")
    func quota() async throws {
        let server = try await TestServer(quotaBytes: 5_000)
        try await server.test { client in
            let (account, token) = try await server.account("ada")
            let used = try await server.service.status(of: account).usedBytes
            let full = try await put(client, Self.pageID(5), Self.blob(Int(5_000 - used) + 1), token: token)
            #expect(full.status.code == 507)
            #expect(try full.decode(APIErrorBody.self).error == .quotaExceeded)
            #expect(try await client.send(.get, "/v1/published/\(Self.pageID(5))").status == .notFound)
            #expect(try await put(client, Self.pageID(5), Self.blob(Int(5_000 - used)), token: token).status == .noContent)
        }
    }

    @Test("deleting an account deletes its pages")
    func accountDeletion() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let (account, token) = try await server.account("ada")
            #expect(try await put(client, Self.pageID(6), Self.blob(100), token: token).status == .noContent)
            try await server.service.deleteAccount(named: account.username)
            #expect(try await client.send(.get, "/v1/published/\(Self.pageID(6))").status == .notFound)
        }
    }

    @Test("the page at /p/{id} and its script are served to anyone, under a policy that lets only the script and the sealed page in; 404 once taken down")
    func readerPage() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let (_, token) = try await server.account("ada")
            #expect(try await put(client, Self.pageID(7), Self.blob(100), token: token).status == .noContent)
            let page = try await client.send(.get, "/p/\(Self.pageID(7))")
            #expect(page.status == .ok)
            #expect(page.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(String(buffer: page.body).contains("/published-page.js"))
            let policy = try #require(page.headers[.contentSecurityPolicy])
            for directive in ["default-src 'none'", "script-src 'self'", "connect-src 'self'", "img-src data:", "frame-ancestors 'none'"] {
                #expect(policy.contains(directive), "\(directive)")
            }
            #expect(page.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
            // Taken down (or never published), the link answers 404, with the page that says so.
            #expect(try await client.send(.delete, "/v1/published/\(Self.pageID(7))", token: token).status == .noContent)
            let gone = try await client.send(.get, "/p/\(Self.pageID(7))")
            #expect(gone.status == .notFound && String(buffer: gone.body).contains("/published-page.js"))
            #expect(try await client.send(.get, "/p/not-an-id").status == .notFound)
            let script = try await client.send(.get, "/published-page.js")
            #expect(script.status == .ok)
            #expect(script.headers[.contentType]?.hasPrefix("text/javascript") == true)
            #expect(String(buffer: script.body).contains("notetaker v1 published|"))
        }
    }
}
