import Hummingbird
import Logging
import Synchronization

/// A line per request at `info`: method, route pattern (never the path, which holds ids),
/// status, milliseconds, and the account when the request was logged in. Nothing of a
/// request's body, and no token.
struct RequestLog: RouterMiddleware {
    func handle(_ request: Request, context: SyncRequestContext, next: (Request, SyncRequestContext) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            log(request, context, status: Int(response.status.code), since: start)
            return response
        } catch {
            log(request, context, status: Int((error as? any HTTPResponseError)?.status.code ?? 500), since: start)
            throw error
        }
    }

    private func log(_ request: Request, _ context: SyncRequestContext, status: Int, since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        var metadata: Logger.Metadata = [
            "method": "\(request.method.rawValue)",
            "route": "\(context.endpointPath ?? "unmatched")",
            "status": "\(status)",
            "ms": "\((milliseconds * 10).rounded() / 10)",
        ]
        if let account = context.account.id { metadata["account"] = "\(account)" }
        context.logger.info("request", metadata: metadata)
    }
}

/// The account a request turned out to be logged in as, noted by the route that checked its
/// token (``SyncService/account(of:_:)``) for the request's log line.
public final class RequestAccount: Sendable {
    private let value = Mutex<Int64?>(nil)

    /// An empty note.
    public init() {}

    /// The account's id, once noted.
    public var id: Int64? { value.withLock { $0 } }

    /// Notes the account's id.
    func note(_ id: Int64) { value.withLock { $0 = id } }
}
