import Foundation
import Hummingbird
import NoteTakerKit
import NIOCore
import NoteTakerSyncProtocol
import ServiceLifecycle
import Testing
@testable import NoteTakerSync

/// A server that sends more than the sync API promises gets a clear error from the device,
/// not a device that fills its memory.
@Suite("A misbehaving server")
struct MisbehavingServerTests {
    @Test("a push channel that never ends its event is cut off with a clear error")
    func endlessEvent() async throws {
        let router = Router()
        router.get("/v1/events") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/event-stream"], body: ResponseBody { writer in
                // 1 MB of one event that never ends, then it hangs on.
                for _ in 0..<64 { try await writer.write(ByteBuffer(string: "data: " + String(repeating: "x", count: 16 * 1024))) }
                try await Task.sleep(for: .seconds(60))
                try await writer.finish(nil)
            })
        }
        try await Self.withServer(router) { server in
            let transport = try HTTPSyncTransport(server: server, token: "t")
            let outcome = try await firstValue(of: Self.outcomes(of: SyncEventStream.connect(transport)), limit: .seconds(30)) { _ in true }
            #expect(outcome?.contains("over 64 kB") == true, "\(outcome ?? "no answer within 30 s")")
        }
    }

    @Test("a page of changes larger than the API allows is refused, streamed or declared", arguments: [false, true])
    func endlessPage(declared: Bool) async throws {
        let router = Router()
        let chunk = ByteBuffer(string: String(repeating: "x", count: 1 << 20))
        let start = ByteBuffer(string: #"{"changes":[{"recordName":""#)
        let chunks = SyncLimits.maxResponseBytes / chunk.readableBytes + 1
        router.get(RouterPath(SyncAPI.changes.path)) { _, _ in
            var headers: HTTPFields = [.contentType: "application/json"]
            if declared { headers[.contentLength] = String(start.readableBytes + chunks * chunk.readableBytes) }
            return Response(status: .ok, headers: headers, body: ResponseBody { writer in
                try await writer.write(start)
                for _ in 0..<chunks { try await writer.write(chunk) }
                try await writer.finish(nil)
            })
        }
        try await Self.withServer(router) { server in
            let transport = try HTTPSyncTransport(server: server, token: "t")
            let error = await #expect(throws: SyncError.self) { try await transport.fetchChanges(ChangesQuery(since: nil)) }
            #expect(error?.message.contains("more than the sync API allows") == true, "\(error?.message ?? "no error")")
        }
    }

    @Test("a server older than the route for many notes' versions is asked a note at a time")
    func versionsOfManyNotesFromAnOlderServer() async throws {
        let (kept, unknown) = (UUID(), UUID())
        let router = Router()
        router.get("/v1/records/:id/versions") { _, context in
            guard context.parameters.get("id") == kept.key else {
                return Response(status: .notFound, headers: [.contentType: "application/json"],
                                body: .init(byteBuffer: ByteBuffer(string: #"{"error":"notFound","message":"No such note."}"#)))
            }
            let body = try JSONEncoder().encode(RecordVersionsResponse(versions: [RecordVersion(changeTag: "7", replacedAt: 1_796_000_000, fields: ["title": .string("Then")])]))
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(data: body)))
        }
        try await Self.withServer(router) { server in
            let answer = try await HTTPSyncTransport(server: server, token: "t").notesVersions([unknown, kept])
            #expect(answer.notes.map(\.recordId) == [kept] && answer.notes.first?.versions.first?.fields["title"] == .string("Then"))
            #expect(answer.unread.isEmpty)
        }
    }

    @Test("a share listed under an id that is not a lowercase UUID is left out: its id would go into the paths of the zone's routes")
    func shareIdsArePathSafe() async throws {
        let router = Router()
        let good = "7d3c1a2b-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
        router.get(RouterPath(SyncAPI.shares.path)) { _, _ in
            let listed = ["../../v1/accounts/current", "7D3C1A2B-4E5F-4A6B-8C7D-9E0F1A2B3C4D", good].map {
                #"{"zone":"\#($0)","owner":"ada","role":"editor","accepted":true,"epoch":1}"#
            }
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: "[" + listed.joined(separator: ",") + "]")))
        }
        try await Self.withServer(router) { server in
            let shares = try await HTTPSyncTransport(server: server, token: "t").shares()
            #expect(shares.map(\.zone) == [good])
        }
    }

    @Test("a downloaded file with another SHA-256 is refused, and nothing is left on disk")
    func wrongFile() async throws {
        let router = Router()
        router.get("/v1/assets/:hash") { _, _ in Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "not the file"))) }
        try await Self.expectRefusedDownload(router, saying: "does not match its SHA-256")
    }

    @Test("a download over the attachment limit is refused, and nothing is left on disk")
    func endlessFile() async throws {
        let router = Router()
        let chunk = ByteBuffer(repeating: 0x61, count: 1 << 20)
        router.get("/v1/assets/:hash") { _, _ in
            Response(status: .ok, body: ResponseBody { writer in
                for _ in 0...(SyncLimits.maxAssetBytes >> 20) { try await writer.write(chunk) }
                try await writer.finish(nil)
            })
        }
        try await Self.expectRefusedDownload(router, saying: "larger than any attachment may be")
    }

    /// Downloads a file from a server of `router`: the download must fail with `message`,
    /// and leave its folder empty.
    static func expectRefusedDownload(_ router: Router<BasicRequestContext>, saying message: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("downloads-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withServer(router) { server in
            let transport = try HTTPSyncTransport(server: server, token: "t")
            let error = await #expect(throws: SyncError.self) {
                try await transport.downloadAsset(hash: String(repeating: "0", count: 64), to: folder.appendingPathComponent("file"))
            }
            #expect(error?.message.contains(message) == true, "\(error?.message ?? "no error")")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    /// Runs `body` with a server of `router` on a loopback port, and stops the server after.
    static func withServer(_ router: Router<BasicRequestContext>, _ body: (URL) async throws -> Void) async throws {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                              onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) })
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: app.logger))
        let server = Task { try await group.run() }
        defer { server.cancel() }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())
        do {
            try await body(try #require(URL(string: "http://127.0.0.1:\(port)")))
        } catch {
            await group.triggerGracefulShutdown()
            throw error
        }
        await group.triggerGracefulShutdown()
    }

    /// The stream's end as text: its error's message, or "ended".
    static func outcomes(of stream: AsyncThrowingStream<String, any Error>) -> AsyncThrowingStream<String, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await _ in stream {}
                    continuation.yield("ended")
                } catch {
                    continuation.yield((error as? SyncError)?.message ?? "\(error)")
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
