import AsyncHTTPClient
import Foundation
import NIOCore
import NoteTakerSyncProtocol
import NoteTakerKit

/// The client side of the push channel: listens to the server's events and yields each
/// `changes` token as it arrives. The stream ends when the connection does.
public enum SyncEventStream {
    /// Connects to the server's event stream.
    public static func connect(_ transport: HTTPSyncTransport) -> AsyncThrowingStream<String, any Error> {
        var request = transport.makeRequest(SyncAPI.events)
        request.headers.add(name: "Accept", value: "text/event-stream")
        let (stream, continuation) = AsyncThrowingStream<String, any Error>.makeStream()
        let task = Task { [request] in
            do {
                try await listen(request, through: try transport.client(), continuation)
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private static func listen(
        _ request: HTTPClientRequest, through client: HTTPClient, _ continuation: AsyncThrowingStream<String, any Error>.Continuation
    ) async throws {
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, deadline: .distantFuture)
        } catch {
            throw SyncHTTPClient.failure(error)
        }
        guard response.status == .ok else {
            throw response.status == .unauthorized ? SyncError.notLoggedIn : SyncError.unreachable("events answered \(response.status.code)")
        }
        var parser = EventParser()
        do {
            for try await chunk in response.body {
                for token in try parser.tokens(after: chunk.readableBytesView) { continuation.yield(token) }
            }
        } catch let error as SyncError {
            throw error
        } catch {
            throw SyncHTTPClient.failure(error)
        }
    }
}

/// Parses server-sent events as bytes arrive.
struct EventParser {
    private var buffer: [UInt8] = []

    /// The longest event the push channel sends is a few hundred bytes: a server that sends
    /// more without ending an event is cut off instead of filling memory.
    static let maximumEventBytes = 64 * 1024

    /// The tokens of the `changes` and `zone` events that `bytes` completes.
    mutating func tokens(after bytes: some Sequence<UInt8>) throws(SyncError) -> [String] {
        buffer.append(contentsOf: bytes)
        var tokens: [String] = []
        var start = buffer.startIndex
        var index = buffer.startIndex
        while index + 1 < buffer.endIndex {
            if buffer[index] == UInt8(ascii: "\n"), buffer[index + 1] == UInt8(ascii: "\n") {
                if let token = Self.changesToken(in: String(decoding: buffer[start..<index], as: UTF8.self)) { tokens.append(token) }
                index += 2
                start = index
            } else {
                index += 1
            }
        }
        buffer.removeSubrange(buffer.startIndex..<start)
        guard buffer.count <= Self.maximumEventBytes else {
            throw .unreachable("the server's push channel sent an event over \(Self.maximumEventBytes / 1024) kB")
        }
        return tokens
    }

    /// The token of a `changes` event, or of a `zone` event (a shared zone this account
    /// accepted changed); `nil` for comments and other events.
    static func changesToken(in event: String) -> String? {
        var name = "message"
        var data = ""
        for line in event.split(separator: "\n") {
            if line.hasPrefix("event:") { name = line.dropFirst(6).trimmingCharacters(in: .whitespaces) }
            if line.hasPrefix("data:") { data += line.dropFirst(5).trimmingCharacters(in: .whitespaces) }
        }
        guard name == "changes" || name == "zone", let object = try? JSONDecoder().decode([String: String].self, from: Data(data.utf8)) else { return nil }
        return object["token"]
    }
}
