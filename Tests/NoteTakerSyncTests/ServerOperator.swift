import Foundation
import NoteTakerKit
import NoteTakerServer
import NoteTakerServerTestSupport
import Testing
import NoteTakerSync

/// A server's operator, as the README tells one to back up and restore: the server stopped,
/// its storage copied (or the copy put back), and the server started again on it.
final class ServerOperator {
    private(set) var server: LiveServer
    /// A session of the account, made before any backup, so every copy holds it.
    let token: String
    private var storage: ServerDatabase
    private var backup: ServerDatabase?
    private let backupFolder = FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-backup-\(UUID().uuidString)")

    private init(server: LiveServer, token: String) {
        self.server = server
        self.token = token
        storage = server.database
    }

    static func start() async throws -> ServerOperator {
        let server = try await LiveServer.start()
        return ServerOperator(server: server, token: try await server.register())
    }

    /// A sync engine for `store` against the server as it runs now.
    func engine(_ store: NoteStore) throws -> SyncEngine {
        SyncEngine(store: store, transport: try HTTPSyncTransport(server: server.url, token: token), options: .init(policy: .localWins))
    }

    func backUp() async throws {
        await server.stop()
        backup = try await TestStorage.backUp(storage, into: backupFolder)
        server = try await LiveServer.start(database: storage, port: server.url.port ?? 0)
    }

    func restore() async throws {
        let backup = try #require(backup, "restored before any backup")
        await server.stop()
        storage = try await TestStorage.restore(backup, over: storage)
        server = try await LiveServer.start(database: storage, port: server.url.port ?? 0)
    }

    func stop() async {
        await server.stop()
        try? FileManager.default.removeItem(at: backupFolder)
    }
}
