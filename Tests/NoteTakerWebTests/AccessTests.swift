import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NoteTakerHTTP
import NoteTakerKit
@testable import NoteTakerWeb
import Testing

/// Only the holder of the store's key gets in: every page and API call without it answers
/// 401 and changes nothing, whatever the path's spelling.
@Suite("The local app's key")
struct AccessTests {
    /// The calls of the issue that found the hole, and the spellings the router folds.
    static var withoutKey: [(HTTPRequest.Method, String, [String: Any]?)] { [
        (.get, "/api/v1/export?format=json", nil),
        (.get, "/api/v1/notes", nil),
        (.get, "//api/v1/notes", nil),
        (.get, "/api//v1/notes/", nil),
        (.post, "/api/v1/sync/account", ["server": "http://127.0.0.1:9999", "username": "x", "password": "xxxxxxxx", "register": true]),
        (.post, "/api/v1/sync/now", nil),
        (.post, "/api/v1/notes", ["title": "injected"]),
        (.get, "/", nil),
        (.get, "/index.html", nil),
        (.get, "/js/app.js", nil),
        (.get, "/api/v1/openapi.json", nil),
    ] }

    @Test("without the key every page and call answers 401 and changes nothing")
    func everythingNeedsTheKey() async throws {
        let app = try WebTestApp()
        _ = try app.store.createNote(NoteDraft(title: "Private", body: "the diary"))
        let before = try app.snapshot()
        try await app.testWithoutKey { client in
            let wrong = LocalAccessKey.random().value
            let credentials: [HTTPFields] = [
                [:], [.authorization: "Bearer \(wrong)"], [.authorization: "Basic \(WebTestApp.key.value)"],
                [.cookie: "notetaker-key=\(wrong)"], [.cookie: "other=\(WebTestApp.key.value)"],
                [.authorization: "Bearer \(WebTestApp.key.value.dropLast())"],
            ]
            for (method, uri, json) in Self.withoutKey {
                for headers in credentials {
                    let response = try await client.send(method, uri, json: json, headers: headers)
                    #expect(response.status == .unauthorized, "\(method) \(uri) \(headers)")
                    #expect(!String(buffer: response.body).contains("the diary"))
                    if RoutedPath(String(uri.prefix { $0 != "?" })).isAPI {
                        #expect(response.errorCode == "unauthorized", "\(uri)")
                    } else {
                        #expect(String(buffer: response.body).contains("/?token="), "the page says where the key is")
                    }
                }
            }
            let inQuery = try await client.send(.get, "/api/v1/notes?token=\(WebTestApp.key.value)")
            #expect(inQuery.status == .unauthorized, "the API takes the key in a header only")
        }
        #expect(try app.snapshot() == before)
        #expect(try app.store.syncSettings().serverURL == nil)
    }

    @Test("the key as a bearer token or as the cookie lets a request in")
    func theKeyLetsIn() async throws {
        let app = try WebTestApp()
        _ = try app.store.createNote(NoteDraft(title: "Private"))
        try await app.testWithoutKey { client in
            for headers: HTTPFields in [
                [.authorization: "Bearer \(WebTestApp.key.value)"],
                [.authorization: "bearer  \(WebTestApp.key.value)"],
                [.cookie: "theme=dark; notetaker-key=\(WebTestApp.key.value)"],
                [.cookie: "notetaker-key=stale; notetaker-key=\(WebTestApp.key.value)"],
            ] {
                let response = try await client.send(.get, "/api/v1/notes", headers: headers)
                #expect(response.status == .ok, "\(headers)")
                #expect(String(buffer: response.body).contains("Private"))
            }
            let page = try await client.send(.get, "/", headers: [.cookie: "notetaker-key=\(WebTestApp.key.value)"])
            #expect(page.status == .ok)
        }
    }

    @Test("the address serve prints trades its key for an HttpOnly, SameSite=Strict cookie and leaves the address bar")
    func theEntryAddressSetsTheCookie() async throws {
        let app = try WebTestApp()
        try await app.testWithoutKey { client in
            let entry = try await client.send(.get, "/?token=\(WebTestApp.key.value)")
            #expect(entry.status == .seeOther)
            #expect(entry.headers[.location] == "/")
            let cookie = try #require(entry.headers[.setCookie])
            #expect(cookie.hasPrefix("notetaker-key=\(WebTestApp.key.value);"))
            for attribute in ["HttpOnly", "SameSite=Strict", "Path=/"] { #expect(cookie.contains(attribute), "\(attribute)") }
            #expect(!cookie.contains("Secure"), "plain HTTP on loopback")
            #expect(entry.headers[.cacheControl] == "no-store")

            let deeper = try await client.send(.get, "//index.html?view=trash&token=\(WebTestApp.key.value)")
            #expect(deeper.headers[.location] == "/index.html?view=trash")

            let wrong = try await client.send(.get, "/?token=\(LocalAccessKey.random().value)")
            #expect(wrong.status == .unauthorized && wrong.headers[.setCookie] == nil)
            let post = try await client.send(.post, "/api/v1/notes?token=\(WebTestApp.key.value)", json: ["title": "x"])
            #expect(post.status == .unauthorized)
        }
        #expect(try app.store.notes(NoteQuery(limit: 10)).isEmpty)
    }

    @Test("each port keeps its own cookie")
    func cookieNamesFollowThePort() {
        #expect(AccessGuard<BasicRequestContext>.cookieName(authority: "127.0.0.1:8080") == "notetaker-key-8080")
        #expect(AccessGuard<BasicRequestContext>.cookieName(authority: "[::1]:8090") == "notetaker-key-8090")
        #expect(AccessGuard<BasicRequestContext>.cookieName(authority: "localhost") == "notetaker-key")
        #expect(AccessGuard<BasicRequestContext>.cookieName(authority: "localhost:99999") == "notetaker-key")
    }

    @Test("a key is 43 URL-safe characters from the system's random source; anything else is not one")
    func keyForm() {
        let keys = Set((0..<100).map { _ in LocalAccessKey.random() })
        #expect(keys.count == 100)
        for key in keys { #expect(LocalAccessKey(key.value) == key) }
        for bad in ["", "short", String(repeating: "a", count: 42), String(repeating: "a", count: 44),
                    String(repeating: "a", count: 42) + "=", String(repeating: "a", count: 42) + "/", String(repeating: "é", count: 22)] {
            #expect(LocalAccessKey(bad) == nil, "\(bad)")
        }
        #expect(WebTestApp.key.matches(WebTestApp.key.value))
        #expect(!WebTestApp.key.matches(WebTestApp.key.value + "k"))
        #expect(!WebTestApp.key.matches(""))
    }

    @Test("the key is kept beside the store, 0600, made once, replaced by --new-token; a damaged file is an error and stays")
    func keyFile() throws {
        let app = try WebTestApp()
        let url = try #require(LocalAccessKey.fileURL(for: app.store))
        #expect(url.lastPathComponent == "NoteTaker.serve-token")
        let first = try LocalAccessKey.load(for: app.store)
        #expect(try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int == 0o600)
        #expect(try LocalAccessKey.load(for: app.store) == first)
        let renewed = try LocalAccessKey.load(for: app.store, renew: true)
        #expect(renewed != first)
        #expect(try LocalAccessKey.load(for: app.store) == renewed)
        #expect(try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int == 0o600)

        try Data("not a key\n".utf8).write(to: url)
        #expect(throws: NoteTakerError.self) { try LocalAccessKey.load(for: app.store) }
        #expect(try String(contentsOf: url, encoding: .utf8) == "not a key\n")
        #expect(LocalAccessKey.fileURL(for: try NoteStore.inMemory()) == nil)
    }
}
