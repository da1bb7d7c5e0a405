import Foundation
import Hummingbird
import NoteTakerSyncProtocol

extension SyncServerError: HTTPResponseError {
    /// The HTTP status for each error code.
    public var status: HTTPResponse.Status {
        switch code {
        case .badRequest: .badRequest
        case .unauthorized, .sessionEnded: .unauthorized
        case .resyncRequired, .serverRestored, .tombstonesPurged: .gone
        case .notFound: .notFound
        case .accountExists, .keysChanged, .sealedAlready, .unsealedRecords, .pageTaken, .membersChanged: .conflict
        case .registrationClosed, .forbidden: .forbidden
        case .tooLarge: .contentTooLarge
        case .quotaExceeded, .serverFull: .init(code: 507, reasonPhrase: "Insufficient Storage")
        case .tooManyRequests: .tooManyRequests
        case .hashMismatch: .unprocessableContent
        case .methodNotAllowed: .methodNotAllowed
        case .internalError: .internalServerError
        case .unavailable: .serviceUnavailable
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
        let buffer = try await collect(request, limit: limit)
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer: buffer))
        } catch let error as DecodingError {
            throw .badRequest("The request body is not valid JSON for this endpoint: \(error.readableDescription) Nothing was changed.")
        } catch {
            throw .badRequest("The request body is not valid JSON. Nothing was changed.")
        }
    }

    /// Reads a request body of at most `limit` bytes as a message with a hand-written JSON
    /// form (see ``WireReader``).
    static func decode<T: WireMessage>(_ type: T.Type, from request: Request, limit: Int = SyncLimits.maxRequestBytes) async throws(SyncServerError) -> T {
        try await read(request, limit: limit) { bytes throws(WireJSONError) in try T(wireJSON: bytes) }
    }

    /// Reads a request body of at most `limit` bytes with `read`, a hand-written JSON reader.
    static func read<T>(
        _ request: Request, limit: Int = SyncLimits.maxRequestBytes, _ read: ([UInt8]) throws(WireJSONError) -> T
    ) async throws(SyncServerError) -> T {
        let buffer = try await collect(request, limit: limit)
        do {
            return try read(Array(buffer.readableBytesView))
        } catch {
            throw .badRequest("The request body is not valid JSON for this endpoint: \(error.problem) at byte \(error.offset). Nothing was changed.")
        }
    }

    /// A request body of at most `limit` bytes; ``APIErrorCode/tooLarge`` past it.
    static func collect(_ request: Request, limit: Int) async throws(SyncServerError) -> ByteBuffer {
        do {
            return try await request.body.collect(upTo: limit)
        } catch {
            throw SyncServerError(.tooLarge, "The request body is over \(limit) bytes. Nothing was changed.")
        }
    }

    /// A JSON response.
    static func response<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) throws -> Response {
        response(bytes: try JSONEncoder.sorted.encode(value), status: status)
    }

    /// A JSON response of a message with a hand-written JSON form.
    static func response<T: WireMessage>(_ value: T, status: HTTPResponse.Status = .ok) -> Response {
        response(bytes: value.wireJSON, status: status)
    }

    private static func response(bytes: some Sequence<UInt8>, status: HTTPResponse.Status) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
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
    /// The account of the request's bearer token; 401 without a live one. Notes the account
    /// in `context` for the request's log line.
    func account(of request: Request, _ context: SyncRequestContext) async throws(SyncServerError) -> (StoredAccount, String) {
        guard let token = request.bearerToken else { throw .notLoggedIn }
        let account = try await authenticate(token: token)
        context.account.note(account.id)
        return (account, token)
    }
}
