import Foundation
import Hummingbird
import NoteTakerSyncProtocol

extension SyncServerError: HTTPResponseError {
    /// The HTTP status for each error code.
    public var status: HTTPResponse.Status {
        switch code {
        case .badRequest: .badRequest
        case .unauthorized, .sessionEnded: .unauthorized
        case .resyncRequired: .gone
        case .notFound: .notFound
        case .accountExists: .conflict
        case .registrationClosed: .forbidden
        case .tooLarge: .contentTooLarge
        case .quotaExceeded: .init(code: 507, reasonPhrase: "Insufficient Storage")
        case .tooManyRequests: .tooManyRequests
        case .hashMismatch: .unprocessableContent
        case .internalError: .internalServerError
        }
    }

    /// A JSON ``APIErrorBody``, with `Retry-After` for throttled logins.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = APIErrorBody(error: code, message: message, usedBytes: usage?.used, quotaBytes: usage?.quota)
        var response = try JSONBody.response(body, status: status)
        if let retryAfter {
            response.headers[.retryAfter] = String(retryAfter)
        }
        return response
    }
}

/// Reading and writing JSON bodies with limits and clear errors.
enum JSONBody {
    /// Decodes a request body of at most `limit` bytes as `T`.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, limit: Int = SyncLimits.maxRequestBytes) async throws(SyncServerError) -> T {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: limit)
        } catch {
            throw SyncServerError(.tooLarge, "The request body is over \(limit) bytes. Nothing was changed.")
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer: buffer))
        } catch let error as DecodingError {
            throw .badRequest("The request body is not valid JSON for this endpoint: \(error.readableDescription) Nothing was changed.")
        } catch {
            throw .badRequest("The request body is not valid JSON. Nothing was changed.")
        }
    }

    /// A JSON response.
    static func response<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try JSONEncoder.sorted.encode(value)
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}

extension Request {
    /// The bearer token of the `Authorization` header.
    var bearerToken: String? {
        guard let header = headers[.authorization], header.lowercased().hasPrefix("bearer ") else { return nil }
        let token = header.dropFirst("bearer ".count).trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}

extension SyncService {
    /// The account of the request's bearer token; 401 without a live one.
    func account(of request: Request) async throws(SyncServerError) -> (StoredAccount, String) {
        guard let token = request.bearerToken else { throw .notLoggedIn }
        return (try await authenticate(token: token), token)
    }
}
