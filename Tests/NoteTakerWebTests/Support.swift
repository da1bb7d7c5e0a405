import Foundation
import Hummingbird
import HummingbirdTesting
import NoteTakerKit
@testable import NoteTakerWeb
import Testing

/// The web app's router over a store in a temporary folder.
struct WebTestApp {
    let directory: URL
    let store: NoteStore

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-web-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try NoteStore.open(at: directory.appendingPathComponent("NoteTaker.sqlite"))
    }

    /// The app's key in every test.
    static let key = LocalAccessKey(String(repeating: "k", count: 43))!

    /// Runs `body` with a client of the router that presents the app's key, as the page and
    /// the README's scripts do.
    func test<T>(
        configuration: WebConfiguration = WebConfiguration(key: WebTestApp.key),
        _ body: @Sendable (any TestClientProtocol) async throws -> T
    ) async throws -> T {
        try await testWithoutKey(configuration: configuration) { client in try await body(KeyedClient(client: client)) }
    }

    /// Runs `body` with a client that sends only what each request names: no key.
    func testWithoutKey<T>(
        configuration: WebConfiguration = WebConfiguration(key: WebTestApp.key),
        _ body: @Sendable (any TestClientProtocol) async throws -> T
    ) async throws -> T {
        let app = Application(router: buildWebRouter(store: store, configuration: configuration))
        return try await app.test(.router, body)
    }
}

/// A client that adds `Authorization: Bearer` with the test key to each request that carries
/// no credential of its own.
struct KeyedClient: TestClientProtocol {
    let client: any TestClientProtocol

    func executeRequest(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws -> TestResponse {
        var headers = headers
        if headers[.authorization] == nil && headers[.cookie] == nil {
            headers[.authorization] = "Bearer \(WebTestApp.key.value)"
        }
        return try await client.executeRequest(uri: uri, method: method, headers: headers, body: body)
    }

    var port: Int? { client.port }
}

extension WebTestApp {

    /// Everything about the store a bad request must leave as it was.
    func snapshot() throws -> String {
        let notes = try store.notes(NoteQuery(limit: 1000)).map { "\($0.id) \($0.title) \($0.body) \($0.isPinned) \(String(describing: $0.folderId)) \($0.tags) \($0.attachments.count)" }
        let folders = try store.folderTree().map { "\($0.folder.id) \($0.folder.name) \($0.children.count)" }
        let trash = try store.trashedNotes().map(\.id)
        return (notes + folders + trash.map(\.uuidString)).joined(separator: "\n")
    }
}

extension TestClientProtocol {
    /// Sends a request, JSON-encoding `json` when given.
    func send(
        _ method: HTTPRequest.Method, _ uri: String, json: [String: Any]? = nil, raw: String? = nil,
        headers extra: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = extra
        var body: ByteBuffer?
        if let json {
            body = ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: json))
            headers[.contentType] = "application/json"
        } else if let raw {
            body = ByteBuffer(string: raw)
            headers[.contentType] = "application/json"
        }
        return try await execute(uri: uri, method: method, headers: headers, body: body)
    }
}

extension TestResponse {
    /// The JSON body as a dictionary.
    var object: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any] ?? [:]
    }

    /// The JSON body as an array of dictionaries.
    var array: [[String: Any]] {
        (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [[String: Any]] ?? []
    }

    /// The error code of an error answer.
    var errorCode: String? { object["error"] as? String }
}
