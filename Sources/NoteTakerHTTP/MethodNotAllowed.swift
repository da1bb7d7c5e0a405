import Hummingbird

/// Answers 405 with `Allow` when a request's path is a route's but its method is none of
/// them (HTTP's rule), instead of the router's 404; `OPTIONS` on such a path answers 204
/// with `Allow`. Add it after every route: the router runs it only for requests no route took.
public struct MethodNotAllowed<Context: RequestContext>: RouterMiddleware {
    private let routes: [(segments: [Substring], method: HTTPRequest.Method)]
    private let refusal: @Sendable (_ allowed: String) -> any HTTPResponseError

    /// Over the router's routes; `refusal` words the error for the methods allowed.
    public init(routes: [Router<Context>.RouteDescription], refusal: @escaping @Sendable (_ allowed: String) -> any HTTPResponseError) {
        self.routes = routes.map { (String(describing: $0.path).split(separator: "/"), $0.method) }
        self.refusal = refusal
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path.split(separator: "/")
        var allowed = Set(routes.filter { Self.matches($0.segments, path) }.map(\.method))
        guard !allowed.isEmpty, !allowed.contains(request.method) else { return try await next(request, context) }
        if allowed.contains(.get) { allowed.insert(.head) }
        allowed.insert(.options)
        let allow = allowed.map(\.rawValue).sorted().joined(separator: ", ")
        if request.method == .options { return Response(status: .noContent, headers: [.allow: allow]) }
        if request.method == .head { return try await next(request, context) }
        var response = try refusal(allow).response(from: request, context: context)
        response.headers[.allow] = allow
        return response
    }

    /// Whether a route's segments (`{name}` takes any one, `**` the rest) match a path's.
    static func matches(_ pattern: [Substring], _ path: [Substring]) -> Bool {
        var index = 0
        for segment in pattern {
            if segment == "**" { return true }
            guard index < path.count else { return false }
            if !(segment.hasPrefix("{") || segment == "*" || segment == path[index]) { return false }
            index += 1
        }
        return index == path.count
    }
}
