import Foundation
import Hummingbird
import HummingbirdTesting
import NoteTakerServer
import NoteTakerServerTestSupport
import NoteTakerSyncProtocol
import Testing

@Suite("Assets")
struct AssetTests {
    @Test("upload by SHA-256, check, download")
    func roundTrip() async throws {
        try await TestServer().test { client in
            let token = try await client.register("ada")
            let content = Data("a picture, say".utf8)
            let hash = sha256Hex(content)
            #expect(try await client.send(.head, "/v1/assets/\(hash)", token: token).status == .notFound)
            let upload = try await client.execute(uri: "/v1/assets/\(hash)", method: .put, headers: [.authorization: "Bearer \(token)"], body: ByteBuffer(bytes: content))
            #expect(upload.status == .noContent)
            #expect(try await client.send(.head, "/v1/assets/\(hash)", token: token).status == .ok)
            let download = try await client.send(.get, "/v1/assets/\(hash)", token: token)
            #expect(download.status == .ok)
            #expect(Data(buffer: download.body) == content)
            let usage = try await client.send(.get, "/v1/accounts/current", token: token).decode(AccountStatus.self)
            #expect(usage.usedBytes == Int64(content.count))
        }
    }

    @Test("a file of several megabytes arrives in small pieces and comes back byte for byte")
    func largeFile() async throws {
        let server = try await TestServer()
        let session = try await server.service.register(Credentials(username: "ada", password: "correct horse"))
        let account = try await server.service.authenticate(token: session.token)
        var generator = SystemRandomNumberGenerator()
        let content = (0..<(2_621_440 + 12_345)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let hash = sha256Hex(Data(content))
        let chunks = AsyncStream<[UInt8]> { continuation in
            for start in stride(from: 0, to: content.count, by: 65_536) {
                continuation.yield(Array(content[start..<min(start + 65_536, content.count)]))
            }
            continuation.finish()
        }
        try await server.service.storeAsset(hash: hash, chunks: chunks, for: account)
        #expect(try await server.service.assetSize(hash: hash, for: account) == Int64(content.count))
        var read = Data()
        try await server.service.readAsset(hash: hash) { read += $0 }
        #expect(read == Data(content))
        #expect(try await TestStorage.storedFileCount(server.configuration) == 1)
    }

    @Test("content that does not match its hash is refused and not stored; bad hashes are refused")
    func badUploads() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let token = try await client.register("ada")
            let claimed = sha256Hex(Data("something else".utf8))
            let upload = try await client.execute(uri: "/v1/assets/\(claimed)", method: .put, headers: [.authorization: "Bearer \(token)"], body: ByteBuffer(string: "the real content"))
            #expect(upload.status == .unprocessableContent)
            #expect(upload.errorCode == .hashMismatch)
            #expect(try await client.send(.head, "/v1/assets/\(claimed)", token: token).status == .notFound)
            for bad in ["..%2F..%2Fetc%2Fpasswd", "ABC", String(repeating: "g", count: 64), String(repeating: "A", count: 64)] {
                let response = try await client.execute(uri: "/v1/assets/\(bad)", method: .put, headers: [.authorization: "Bearer \(token)"], body: ByteBuffer(string: "x"))
                #expect(response.status == .badRequest || response.status == .notFound, "\(bad)")
                #expect(try await client.send(.get, "/v1/assets/\(bad)", token: token).status != .ok)
            }
        }
        // An upload that streams past 250 MB is cut off, whatever its headers said.
        let account = try await server.service.authenticate(
            token: try await server.service.login(Credentials(username: "ada", password: "correct horse")).token)
        let chunk = [UInt8](repeating: 7, count: 1 << 20)
        let chunks = AsyncStream<[UInt8]> { continuation in
            for _ in 0...250 { continuation.yield(chunk) }
            continuation.finish()
        }
        await #expect(throws: SyncServerError(.tooLarge, "Attachment too large. Maximum size is 250MB.")) {
            try await server.service.storeAsset(hash: String(repeating: "a", count: 64), chunks: chunks, for: account)
        }
        #expect(try await TestStorage.storedFileCount(server.configuration) == 0)
    }

    @Test("assets over the quota are refused and leave no file behind")
    func quota() async throws {
        let server = try await TestServer(quotaBytes: 1_000)
        try await server.test { client in
            let token = try await client.register("ada")
            // Six uploads, each over what is left: none is kept, on disk or in the usage.
            for index in 0..<6 {
                let content = Data(String(repeating: "z\(index)", count: 600).utf8)
                let upload = try await client.execute(uri: "/v1/assets/\(sha256Hex(content))", method: .put, headers: [.authorization: "Bearer \(token)"], body: ByteBuffer(bytes: content))
                #expect(upload.status.code == 507)
                #expect(try upload.decode(APIErrorBody.self).message.contains("Storage full"))
                #expect(try await client.send(.head, "/v1/assets/\(sha256Hex(content))", token: token).status == .notFound)
            }
            let status = try await client.send(.get, "/v1/accounts/current", token: token).decode(AccountStatus.self)
            #expect(status.usedBytes == 0)
        }
        #expect(try await TestStorage.storedFileCount(server.configuration) == 0, "a refused upload was left behind")
    }

    @Test("the server's data folder, database and asset files are readable by their owner only", .enabled(if: !TestStorage.usesPostgres))
    func ownerOnly() async throws {
        let server = try await TestServer()
        let directory = try #require(server.directory)
        let content = Data("private file".utf8)
        try await server.test { client in
            let token = try await client.register("ada")
            let upload = try await client.execute(uri: "/v1/assets/\(sha256Hex(content))", method: .put, headers: [.authorization: "Bearer \(token)"], body: ByteBuffer(bytes: content))
            #expect(upload.status.code < 300)
        }
        func mode(_ path: String) throws -> Int? { try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int }
        let hash = sha256Hex(content)
        #expect(try mode(directory.path) == 0o700)
        #expect(try mode(directory.appendingPathComponent("NoteTakerServer.sqlite").path) == 0o600)
        let asset = directory.appendingPathComponent("assets/\(hash.prefix(2))/\(hash)")
        #expect(try mode(asset.deletingLastPathComponent().path) == 0o700)
        #expect(try mode(asset.path) == 0o600)
    }
}
