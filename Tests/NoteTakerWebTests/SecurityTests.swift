import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NoteTakerKit
@testable import NoteTakerWeb
import Testing

@Suite struct SecurityTests {
    @Test func onlyLoopbackHostNamesAreAccepted() {
        for host in ["127.0.0.1", "127.0.0.1:8080", "localhost:1", "LOCALHOST", "[::1]", "[::1]:8080"] {
            #expect(OriginGuard<BasicRequestContext>.isLoopback(host: host), "\(host)")
        }
        for host in ["evil.example", "evil.example:8080", "127.0.0.1.evil.example", "localhost.evil.example:80", "[::2]:80", "127.0.0.1:80:80", "", "[::1]x"] {
            #expect(!OriginGuard<BasicRequestContext>.isLoopback(host: host), "\(host)")
        }
    }

    @Test func requestsFromAnotherSiteAreRefusedAndChangeNothing() async throws {
        let app = try WebTestApp()
        let note = try app.store.createNote(NoteDraft(title: "Mine"))
        let before = try app.snapshot()
        try await app.test { client in
            let foreign: [HTTPFields] = [
                [.origin: "http://evil.example"],
                [.origin: "http://localhost:9999"],
                [.origin: "null"],
                [HTTPField.Name("Sec-Fetch-Site")!: "cross-site"],
                [HTTPField.Name("Sec-Fetch-Site")!: "same-site"],
            ]
            for headers in foreign {
                let create = try await client.send(.post, "/api/v1/notes", json: ["title": "injected"], headers: headers)
                #expect(create.status == .forbidden && create.errorCode == "forbidden_origin", "\(headers)")
                let delete = try await client.send(.delete, "/api/v1/notes/\(note.id)", headers: headers)
                #expect(delete.status == .forbidden)
            }
            let read = try await client.send(.get, "/api/v1/notes", headers: [HTTPField.Name("Sec-Fetch-Site")!: "cross-site"])
            #expect(read.status == .forbidden, "another site cannot even read")
            let own = try await client.send(.get, "/api/v1/notes", headers: [.origin: "http://localhost", HTTPField.Name("Sec-Fetch-Site")!: "same-origin"])
            #expect(own.status == .ok)
            let script = try await client.send(.get, "/api/v1/notes")
            #expect(script.status == .ok, "scripts send neither header")
        }
        #expect(try app.snapshot() == before)
    }

    @Test func everyAnswerCarriesTheContentSecurityPolicy() async throws {
        let app = try WebTestApp()
        try await app.test { client in
            for uri in ["/", "/api/v1/notes", "/api/v1/notes/nope", "/js/app.js"] {
                let response = try await client.send(.get, uri)
                let policy = response.headers[.contentSecurityPolicy] ?? ""
                #expect(policy.contains("script-src 'self'") && !policy.contains("unsafe-inline"), "\(uri)")
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
                #expect(response.headers[HTTPField.Name("Server-Timing")!]?.hasPrefix("app;dur=") == true)
            }
            let page = try await client.send(.get, "/")
            #expect(String(buffer: page.body).contains("<script type=\"module\" src=\"/js/app.js\"></script>"))
        }
    }
}
