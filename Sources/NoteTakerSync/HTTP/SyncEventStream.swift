import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NoteTakerSyncProtocol
import NoteTakerKit

/// The client side of the push channel: listens to the server's events and yields each
/// `changes` token as it arrives. The stream ends when the connection does.
public enum SyncEventStream {
    /// Connects to the server's event stream.
    public static func connect(_ transport: HTTPSyncTransport) -> AsyncThrowingStream<String, any Error> {
        let (stream, continuation) = AsyncThrowingStream<String, any Error>.makeStream()
        let receiver = EventReceiver(continuation: continuation)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 60
        configuration.timeoutIntervalForResource = .infinity
        let session = URLSession(configuration: configuration, delegate: receiver, delegateQueue: nil)
        var request = transport.makeRequest(SyncAPI.events)
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        let task = session.dataTask(with: request)
        continuation.onTermination = { _ in
            // Not inline: cancelling calls back into the stream, which is terminating now.
            DispatchQueue.global().async {
                task.cancel()
                session.invalidateAndCancel()
            }
        }
        task.resume()
        return stream
    }
}

/// Parses server-sent events as bytes arrive.
final class EventReceiver: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let continuation: AsyncThrowingStream<String, any Error>.Continuation
    private let lock = NSLock()
    private var buffer = Data()

    init(continuation: AsyncThrowingStream<String, any Error>.Continuation) {
        self.continuation = continuation
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        if let http = response as? HTTPURLResponse, http.statusCode != 200 {
            continuation.finish(throwing: http.statusCode == 401 ? SyncError.notLoggedIn : SyncError.unreachable("events answered \(http.statusCode)"))
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
    }

    /// The longest event the push channel sends is a few hundred bytes: a server that sends
    /// more without ending an event is cut off instead of filling memory.
    static let maximumEventBytes = 64 * 1024

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let events: [String]? = lock.withLock {
            buffer.append(data)
            var events: [String] = []
            while let range = buffer.range(of: Data("\n\n".utf8)) {
                events.append(String(decoding: buffer[buffer.startIndex..<range.lowerBound], as: UTF8.self))
                buffer.removeSubrange(buffer.startIndex..<range.upperBound)
            }
            return buffer.count > Self.maximumEventBytes ? nil : events
        }
        guard let events else {
            dataTask.cancel()
            continuation.finish(throwing: SyncError.unreachable("the server's push channel sent an event over \(Self.maximumEventBytes / 1024) kB"))
            return
        }
        for event in events {
            if let token = Self.changesToken(in: event) { continuation.yield(token) }
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error {
            continuation.finish(throwing: SyncError.unreachable(error.localizedDescription))
        } else {
            continuation.finish()
        }
    }

    /// The token of a `changes` event (`nil` for comments and other events).
    static func changesToken(in event: String) -> String? {
        var name = "message"
        var data = ""
        for line in event.split(separator: "\n") {
            if line.hasPrefix("event:") { name = line.dropFirst(6).trimmingCharacters(in: .whitespaces) }
            if line.hasPrefix("data:") { data += line.dropFirst(5).trimmingCharacters(in: .whitespaces) }
        }
        guard name == "changes", let object = try? JSONDecoder().decode([String: String].self, from: Data(data.utf8)) else { return nil }
        return object["token"]
    }
}
