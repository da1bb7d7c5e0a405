import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NoteTakerHTTP
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

    /// Each spelling of a path against each guard: the guards decide on the path the router
    /// answers, so a folded spelling meets the same guard, and one the router does not fold
    /// reaches no route.
    @Test func everyGuardSeesThePathAsTheRouterDoes() async throws {
        let app = try WebTestApp()
        _ = try app.store.createNote(NoteDraft(title: "Private", body: "the diary"))
        let routed = ["/api/v1/notes", "//api/v1/notes", "/api//v1/notes", "/api/v1/notes/", "///api///v1///notes//"]
        let unrouted = ["/API/v1/notes", "/%61pi/v1/notes", "/api/v1/../v1/notes", "/./api/v1/notes", "/api/v1/%6eotes"]
        for path in routed {
            #expect(RoutedPath(path) == RoutedPath("/api/v1/notes") && RoutedPath(path).isAPI, "\(path)")
        }
        for path in unrouted { #expect(RoutedPath(path) != RoutedPath("/api/v1/notes"), "\(path)") }
        let crossSite: HTTPFields = [HTTPField.Name("Sec-Fetch-Site")!: "cross-site"]
        try await app.test { client in
            for path in routed {
                let plain = try await client.send(.get, path)
                #expect(plain.status == .ok && String(buffer: plain.body).contains("the diary"), "\(path) is the notes' route")
                let foreign = try await client.send(.get, path, headers: crossSite)
                #expect(foreign.status == .forbidden, "\(path) from another site")
            }
            for path in unrouted {
                let foreign = try await client.send(.get, path, headers: crossSite)
                #expect(!String(buffer: foreign.body).contains("the diary"), "\(path)")
                let plain = try await client.send(.get, path)
                #expect([.notFound, .badRequest].contains(plain.status) && !String(buffer: plain.body).contains("the diary"), "\(path) reaches no route")
            }
        }
        try await app.testWithoutKey { client in
            for path in routed + unrouted {
                let response = try await client.send(.get, path)
                #expect(response.status == .unauthorized, "\(path) without the key")
            }
        }
    }

    @Test func anotherHostNeedsTLSAndAnswersOnlyToItsName() async throws {
        let tls = TLSFiles(certificatePath: "/nonexistent/cert.pem", keyPath: "/nonexistent/key.pem")
        for host in ["0.0.0.0", "192.0.2.7", "notes.lan", "::"] {
            #expect(throws: WebConfigurationError.exposedWithoutTLS(host)) { try WebConfiguration(key: WebTestApp.key, host: host).validate() }
            try WebConfiguration(key: WebTestApp.key, host: host, tls: tls).validate()
        }
        for host in ["127.0.0.1", "localhost", "::1", "127.0.0.2"] {
            try WebConfiguration(key: WebTestApp.key, host: host).validate()
        }
        let store = try NoteStore.inMemory()
        #expect(throws: WebConfigurationError.self) { _ = try buildWebApplication(store: store, configuration: WebConfiguration(key: WebTestApp.key, host: "0.0.0.0")) }
        do {
            _ = try buildWebApplication(store: store, configuration: WebConfiguration(key: WebTestApp.key, host: "notes.lan", tls: tls))
            Issue.record("a certificate that cannot be read was accepted")
        } catch {
            #expect(error.message.hasPrefix("Cannot use the TLS file /nonexistent/cert.pem"), "\(error.message)")
        }

        let lan = WebConfiguration(key: WebTestApp.key, host: "notes.lan", tls: tls)
        let guardOf = { (configuration: WebConfiguration) in OriginGuard<BasicRequestContext>(configuration: configuration) }
        for host in ["notes.lan:8443", "NOTES.LAN", "127.0.0.1:8443", "localhost"] { #expect(guardOf(lan).accepts(host: host), "\(host)") }
        for host in ["evil.example", "notes.lan.evil.example", "notes.lan:x", ""] { #expect(!guardOf(lan).accepts(host: host), "\(host)") }
        let everywhere = WebConfiguration(key: WebTestApp.key, host: "0.0.0.0", tls: tls)
        #expect(guardOf(everywhere).accepts(host: "192.0.2.7:8443") && !guardOf(everywhere).accepts(host: "a:b:c"))
        let local = WebConfiguration(key: WebTestApp.key)
        #expect(!guardOf(local).accepts(host: "notes.lan") && guardOf(local).accepts(host: "[::1]:8080"))
        #expect(guardOf(WebConfiguration(key: WebTestApp.key, host: "::1")).accepts(host: "[::1]"))

        let app = try WebTestApp()
        try await app.test(configuration: lan) { client in
            let origin = try await client.send(.post, "/api/v1/notes", json: ["title": "x"], headers: [.origin: "http://localhost"])
            #expect(origin.status == .forbidden, "over TLS the page's origin is https")
            let own = try await client.send(.post, "/api/v1/notes", json: ["title": "x"], headers: [.origin: "https://localhost"])
            #expect(own.status == .created)
        }
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
