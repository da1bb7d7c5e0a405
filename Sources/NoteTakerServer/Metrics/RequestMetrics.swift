import Foundation
import Hummingbird

/// Counts every request and how long its answer took, by method, route (the route's pattern,
/// not the path, so that ids do not each make a series) and status.
struct RequestMetrics: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: SyncRequestContext, next: (Request, SyncRequestContext) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let route = context.endpointPath ?? "unmatched"
        do {
            let response = try await next(request, context)
            metrics.request(method: request.method.rawValue, route: route, status: response.status.code, duration: .now - start)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            metrics.request(method: request.method.rawValue, route: route, status: status, duration: .now - start)
            throw error
        }
    }
}
