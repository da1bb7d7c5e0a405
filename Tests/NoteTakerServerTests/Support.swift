import Crypto
import Foundation
import Hummingbird
import Logging
import HummingbirdTesting
import NoteTakerServer
import NoteTakerServerTestSupport
import NoteTakerSyncProtocol
import Testing

/// A sync server over fresh storage (see ``TestStorage``), driven through its router.
struct TestServer {
    let configuration: ServerConfiguration
    let service: SyncService

    init(
        quotaBytes: Int64 = ServerConfiguration.defaultQuota, registrationOpen: Bool = true, requiresEncryption: Bool = false,
        tombstoneRetention: TombstoneRetention = .standard
    ) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-server-\(UUID().uuidString)")
        var configuration = try await TestStorage.configuration(directory: directory, quotaBytes: quotaBytes, registrationOpen: registrationOpen)
        configuration.tombstoneRetention = tombstoneRetention
        configuration.requiresEncryption = requiresEncryption
        self.configuration = configuration
        let backend = try await configuration.openBackend()
        TestStorage.start(backend)
        service = backend.service
    }

    /// A second server (node) on the storage of `other`.
    init(sharing other: TestServer) async throws {
        try await self.init(configuration: other.configuration)
    }

    /// A server on the storage `configuration` names.
    init(configuration: ServerConfiguration) async throws {
        self.configuration = configuration
        let backend = try await configuration.openBackend()
        TestStorage.start(backend)
        service = backend.service
    }

    /// The SQLite storage's folder (`nil` on PostgreSQL).
    var directory: URL? {
        if case .sqlite(let directory) = configuration.database { return directory }
        return nil
    }

    /// Runs `body` with a client of the router (`.live`: over a loopback socket, where
    /// requests have a peer address).
    func test<T>(
        _ framework: TestingSetup = .router, trustedProxies: [AddressBlock] = [],
        _ body: @Sendable (any TestClientProtocol) async throws -> T
    ) async throws -> T {
        let app = Application(router: buildRouter(service: service, trustedProxies: trustedProxies), logger: .testServer)
        return try await app.test(framework, body)
    }
}

extension TestServer {
    /// A server on SQLite that `before` fills, its storage moved to a new PostgreSQL
    /// database by `migrate-data` (``StorageCopy``), and a server on the copy that `after`
    /// checks, given what `before` returned.
    static func movedToPostgres<T: Sendable>(
        before: @Sendable (TestServer, any TestClientProtocol) async throws -> T,
        after: @Sendable (any TestClientProtocol, T) async throws -> Void
    ) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-server-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let sqlite = try await TestServer(configuration: ServerConfiguration(dataDirectory: directory, passwordHasher: .fastForTests))
        let made = try await sqlite.test { client in try await before(sqlite, client) }
        var moved = sqlite.configuration
        moved.database = .postgres(try await TestStorage.newDatabase())
        guard case .postgres(let url) = moved.database else { return }
        _ = try await StorageCopy.copy(from: directory, to: try PostgresDatabase(url: url))
        try await TestServer(configuration: moved).test { client in try await after(client, made) }
    }

    /// Registers an account through the service itself; returns it and its session token.
    func account(_ username: String = "ada") async throws -> (StoredAccount, String) {
        let session = try await service.register(Credentials(username: username, password: "correct horse"))
        return (try await service.authenticate(token: session.token), session.token)
    }
}

extension TestClientProtocol {
    /// Sends a request with an optional bearer token and JSON body.
    func send(
        _ method: HTTPRequest.Method, _ uri: String, token: String? = nil, json: (any Encodable)? = nil, raw: String? = nil,
        headers extra: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = extra
        if let token { headers[.authorization] = "Bearer \(token)" }
        var body: ByteBuffer?
        if let json {
            body = ByteBuffer(bytes: try JSONEncoder().encode(json))
            headers[.contentType] = "application/json"
        } else if let raw {
            body = ByteBuffer(string: raw)
        }
        return try await execute(uri: uri, method: method, headers: headers, body: body)
    }

    /// Registers an account and returns its token.
    func register(_ username: String, password: String = "correct horse") async throws -> String {
        let response = try await send(.post, "/v1/accounts", json: Credentials(username: username, password: password))
        #expect(response.status == .created)
        return try response.decode(SessionResponse.self).token
    }

    /// Sends a batch, as the device `deviceId` when given, and decodes the answer.
    func modify(_ token: String, _ changes: [RecordChange], requestId: UUID = UUID(), deviceId: UUID? = nil) async throws -> ModifyResponse {
        let response = try await send(.post, "/v1/records/modify", token: token,
                                      json: ModifyRequest(requestId: requestId, changes: changes, deviceId: deviceId))
        #expect(response.status == .ok)
        return try response.decode(ModifyResponse.self)
    }

    /// Every change since `token`.
    func changes(_ token: String, since: String? = nil) async throws -> ChangesResponse {
        let query = since.map { "?since=\($0.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? $0)" } ?? ""
        let response = try await send(.get, "/v1/changes\(query)", token: token)
        #expect(response.status == .ok)
        return try response.decode(ChangesResponse.self)
    }
}

extension TestResponse {
    /// Decodes the JSON body.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(buffer: body))
    }

    /// The error code of an error answer.
    var errorCode: APIErrorCode? {
        try? decode(APIErrorBody.self).error
    }
}

/// A note save with a title.
func noteSave(_ id: UUID = UUID(), title: String, base: String? = nil) -> RecordChange {
    RecordChange(recordType: "note", recordId: id, operation: .save, baseChangeTag: base, fields: ["title": .string(title), "body": .string("")])
}

/// The SHA-256 of some bytes, as the API names assets.
func sha256Hex(_ data: Data) -> String {
    SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
}

/// A new self-signed CA certificate (PEM) made by openssl in `folder`, named `name`.
func makeCertificateAuthority(in folder: URL, name: String) throws -> URL {
    let certificate = folder.appendingPathComponent("ca.pem")
    let openssl = Process()
    openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
    openssl.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=\(name)",
                         "-keyout", folder.appendingPathComponent("ca.key").path, "-out", certificate.path]
    openssl.standardError = FileHandle.nullDevice
    try openssl.run()
    openssl.waitUntilExit()
    return certificate
}
