import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NoteTakerSyncProtocol
import NoteTakerKit

/// Collects the answers of a session's data tasks, each up to a byte limit: an answer that
/// runs over (by its declared length or by what arrives) is cancelled and fails with a clear
/// error, so a server that sends more than the API promises never fills a device's memory.
///
/// The session's delegate. Tasks started with ``start(_:completion:)`` are its own; any other
/// task of the session (uploads and downloads, which have completion handlers) is ignored.
final class BoundedResponses: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// What a finished task hands back: its body and answer, or why it failed.
    typealias Completion = @Sendable (Result<(Data, URLResponse), any Error>) -> Void

    private struct Pending {
        var body = Data()
        var response: URLResponse?
        var overflowed = false
        let completion: Completion
    }

    /// The most bytes of one answer.
    let limit: Int
    private let lock = NSLock()
    private var pending: [Int: Pending] = [:]

    init(limit: Int = SyncLimits.maxResponseBytes) {
        self.limit = limit
    }

    /// Starts `task`; `completion` runs once, when it ends.
    func start(_ task: URLSessionDataTask, completion: @escaping Completion) {
        lock.withLock { pending[task.taskIdentifier] = Pending(completion: completion) }
        task.resume()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let declaredTooLong = response.expectedContentLength > Int64(limit)
        lock.withLock {
            pending[dataTask.taskIdentifier]?.response = response
            if declaredTooLong { pending[dataTask.taskIdentifier]?.overflowed = true }
        }
        completionHandler(declaredTooLong ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        // The body grows in place: a copy of the entry taken out and put back would copy
        // the whole body so far with each piece.
        let overflowed: Bool = lock.withLock {
            let id = dataTask.taskIdentifier
            guard pending[id]?.overflowed == false, let received = pending[id]?.body.count else { return false }
            if received + data.count > limit {
                pending[id]?.overflowed = true
                pending[id]?.body = Data()
                return true
            }
            pending[id]?.body.append(data)
            return false
        }
        if overflowed { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let entry = lock.withLock({ pending.removeValue(forKey: task.taskIdentifier) }) else { return }
        if entry.overflowed {
            entry.completion(.failure(SyncError.server(
                code: "tooLarge",
                message: "The server sent an answer of over \(SyncError.megabytes(Int64(limit))), more than the sync API allows; it was not read.")))
        } else if let error {
            entry.completion(.failure(error))
        } else if let response = entry.response {
            entry.completion(.success((entry.body, response)))
        } else {
            entry.completion(.failure(URLError(.badServerResponse)))
        }
    }
}
