import Crypto
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NoteTakerSyncProtocol
import NoteTakerKit

/// The real transport: the sync API over HTTPS (or HTTP on this machine), with a bearer token.
public struct HTTPSyncTransport: SyncTransport {
    /// The server's base address.
    public let server: URL
    /// The session's bearer token, once logged in.
    public let token: String?
    let session: URLSession
    let responses: BoundedResponses

    /// Creates a transport. A plain `http://` address that is not on this machine is
    /// refused unless `allowInsecure` is set: sync carries notes and passwords.
    public init(server: URL, token: String?, allowInsecure: Bool = false, timeout: TimeInterval = 60) throws(SyncError) {
        try Self.checkSecure(server, allowInsecure: allowInsecure)
        self.server = server
        self.token = token
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.httpMaximumConnectionsPerHost = 4
        // Sync answers are never cached: without this, URLSession looks into its cache
        // directory for every request.
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        self.responses = BoundedResponses()
        self.session = URLSession(configuration: configuration, delegate: responses, delegateQueue: nil)
    }

    /// Refuses addresses that would send notes unencrypted over a network.
    public static func checkSecure(_ server: URL, allowInsecure: Bool) throws(SyncError) {
        switch server.scheme?.lowercased() {
        case "https": return
        case "http" where allowInsecure || isLoopback(server.host ?? ""): return
        case "http": throw .insecureServer(server.absoluteString)
        default: throw .server(code: "badRequest", message: "\(server.absoluteString) is not an http:// or https:// address.")
        }
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }

    // MARK: SyncTransport

    /// The server's health answer.
    public func health() async throws(SyncError) -> HealthResponse {
        try await json(HealthResponse.self, SyncAPI.health)
    }

    /// A page of changes (up to the API's largest page) since the query's token.
    public func fetchChanges(_ query: ChangesQuery) async throws(SyncError) -> ChangesResponse {
        var items = [URLQueryItem(name: "limit", value: String(SyncLimits.maxPageSize))]
        if let since = query.since { items.append(URLQueryItem(name: "since", value: since)) }
        if let device = query.deviceId { items.append(URLQueryItem(name: "device", value: device.uuidString.lowercased())) }
        if let authored = query.authoredToken { items.append(URLQueryItem(name: "authored", value: authored)) }
        return try await exchange(SyncAPI.changes, query: items) { try ChangesResponse(wireJSON: Array($0)) }
    }

    /// Sends a batch of saves and deletes.
    public func modify(_ request: ModifyRequest) async throws(SyncError) -> ModifyResponse {
        try await exchange(SyncAPI.modify, body: Data(request.wireJSON)) { try ModifyResponse(wireJSON: Array($0)) }
    }

    /// The earlier versions of a note that the server kept, newest first.
    public func recordVersions(_ recordId: UUID) async throws(SyncError) -> [RecordVersion] {
        try await json(RecordVersionsResponse.self, SyncAPI.recordVersions, id: recordId).versions
    }

    /// Whether the account holds the file with this SHA-256.
    public func assetExists(hash: String) async throws(SyncError) -> Bool {
        let (_, response) = try await send(makeRequest(SyncAPI.assetExists, hash: hash), accepting: [200, 404])
        return response.statusCode == 200
    }

    /// Uploads a file under its SHA-256.
    public func uploadAsset(hash: String, from file: URL) async throws(SyncError) {
        var request = makeRequest(SyncAPI.uploadAsset, hash: hash)
        request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        _ = try Self.check(try await perform { completion in session.uploadTask(with: request, fromFile: file, completionHandler: completion) },
                           accepting: [200, 204])
    }

    /// Downloads a file to disk (never whole into memory), checks its size and SHA-256, and
    /// moves it to `file`; a file over the attachment limit or with another hash is refused.
    public func downloadAsset(hash: String, to file: URL) async throws(SyncError) {
        let staging = file.deletingLastPathComponent().appendingPathComponent(".download-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: staging) }
        let request = makeRequest(SyncAPI.downloadAsset, hash: hash)
        let (_, response) = try await perform { completion in
            session.downloadTask(with: request) { location, response, error in
                // The downloaded file is removed when this returns: keep it first.
                var kept: (any Error)?
                if let location {
                    do { try FileManager.default.moveItem(at: location, to: staging) } catch { kept = error }
                }
                completion(nil, response, error ?? kept)
            }
        }
        if (response as? HTTPURLResponse)?.statusCode != 200 {
            let body = (try? FileHandle(forReadingFrom: staging)).flatMap { handle in
                defer { try? handle.close() }
                return try? handle.read(upToCount: 65_536)
            }
            _ = try Self.check((body ?? Data(), response), accepting: [200])
        }
        try Self.verify(staging, hash: hash)
        do {
            try OwnerOnly.restrict(staging)
            if FileManager.default.fileExists(atPath: file.path) { try FileManager.default.removeItem(at: file) }
            try FileManager.default.moveItem(at: staging, to: file)
        } catch {
            throw .store(.fileWriteFailed(path: file.path, reason: error.localizedDescription))
        }
    }

    /// Checks a downloaded file's size against the attachment limit and its SHA-256, reading
    /// it a megabyte at a time.
    static func verify(_ file: URL, hash: String) throws(SyncError) {
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value ?? 0
        guard size <= SyncLimits.maxAssetBytes else {
            throw .server(code: "tooLarge", message: "The server sent a file of \(SyncError.megabytes(size)), larger than any attachment may be; it was not saved.")
        }
        var hasher = SHA256()
        do {
            let handle = try FileHandle(forReadingFrom: file)
            defer { try? handle.close() }
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hasher.update(data: chunk) }
        } catch {
            throw .store(.fileUnreadable(path: file.path, reason: error.localizedDescription))
        }
        let actual = hasher.finalize().map { String(format: "%02x", $0) }.joined()
        guard actual == hash else {
            throw .server(code: "hashMismatch", message: "The downloaded attachment file does not match its SHA-256; it was not saved.")
        }
    }

    // MARK: Requests

    func makeRequest(_ endpoint: SyncAPI.Endpoint, hash: String? = nil, id: UUID? = nil, query: [URLQueryItem] = []) -> URLRequest {
        var path = endpoint.path
        if let hash { path = path.replacingOccurrences(of: "{hash}", with: hash) }
        if let id { path = path.replacingOccurrences(of: "{id}", with: id.uuidString.lowercased()) }
        var components = URLComponents(url: server, resolvingAgainstBaseURL: false) ?? URLComponents()
        components.path = components.path.trimmingSuffix("/") + path
        components.queryItems = query.isEmpty ? nil : query
        var request = URLRequest(url: components.url ?? server)
        request.httpMethod = endpoint.method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        return request
    }

    /// Sends a JSON request and decodes the JSON answer.
    func json<T: Decodable>(
        _ type: T.Type, _ endpoint: SyncAPI.Endpoint, id: UUID? = nil, query: [URLQueryItem] = [], body: (any Encodable)? = nil
    ) async throws(SyncError) -> T {
        var data: Data?
        if let body {
            do {
                data = try JSONEncoder().encode(body)
            } catch {
                throw .server(code: "badRequest", message: "The request could not be encoded.")
            }
        }
        return try await exchange(endpoint, id: id, query: query, body: data) { try JSONDecoder().decode(T.self, from: $0) }
    }

    /// Sends a request with a JSON body, if any, and reads the answer with `read`.
    func exchange<T>(
        _ endpoint: SyncAPI.Endpoint, id: UUID? = nil, query: [URLQueryItem] = [], body: Data? = nil, read: (Data) throws -> T
    ) async throws(SyncError) -> T {
        var request = makeRequest(endpoint, id: id, query: query)
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = body
        }
        let (data, _) = try await send(request, accepting: [200, 201])
        do {
            return try read(data)
        } catch {
            throw .server(code: "badResponse", message: "The server's answer was not what the sync API promises (\(endpoint.method) \(endpoint.path)).")
        }
    }

    /// Sends a request and reads its answer, up to ``SyncLimits/maxResponseBytes``; any status
    /// outside `accepting` becomes a `SyncError`.
    func send(_ request: URLRequest, accepting: Set<Int>) async throws(SyncError) -> (Data, HTTPURLResponse) {
        let result: (Data, URLResponse)
        do {
            result = try await withCheckedThrowingContinuation { continuation in
                responses.start(session.dataTask(with: request)) { continuation.resume(with: $0) }
            }
        } catch let error as SyncError {
            throw error
        } catch {
            throw .unreachable(error.localizedDescription)
        }
        return try Self.check(result, accepting: accepting)
    }

    /// Runs a URLSession upload or download task to completion. The completion-handler form
    /// (like ``BoundedResponses`` for data tasks) is used on purpose:
    /// cancelling a task suspended in the `async` URLSession methods deadlocks the
    /// concurrency runtime in swift-corelibs-foundation (their cancellation handler resumes
    /// the continuation while the task's status is locked). A cancelled sync waits for the
    /// request to end instead.
    private func perform(
        _ makeTask: (@escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) -> URLSessionTask
    ) async throws(SyncError) -> (Data, URLResponse) {
        do {
            return try await withCheckedThrowingContinuation { continuation in
                makeTask { data, response, error in
                    if let response, error == nil {
                        continuation.resume(returning: (data ?? Data(), response))
                    } else {
                        continuation.resume(throwing: error ?? URLError(.badServerResponse))
                    }
                }.resume()
            }
        } catch {
            throw .unreachable(error.localizedDescription)
        }
    }

    static func check(_ result: (Data, URLResponse), accepting: Set<Int>) throws(SyncError) -> (Data, HTTPURLResponse) {
        guard let response = result.1 as? HTTPURLResponse else { throw .unreachable("no HTTP answer") }
        if accepting.contains(response.statusCode) { return (result.0, response) }
        let body = try? JSONDecoder().decode(APIErrorBody.self, from: result.0)
        switch (response.statusCode, body?.error) {
        case (_, .resyncRequired?), (410, _): throw .resyncRequired
        case (_, .sessionEnded?), (401, nil): throw .notLoggedIn
        case (502...504, _): throw .unreachable("the server answered \(response.statusCode)")
        case (_, .quotaExceeded?) where body?.usedBytes != nil && body?.quotaBytes != nil:
            throw .storageFull(usedBytes: body?.usedBytes ?? 0, quotaBytes: body?.quotaBytes ?? 0)
        default:
            throw .server(code: body?.error.rawValue ?? String(response.statusCode),
                          message: body?.message ?? "HTTP \(response.statusCode)")
        }
    }
}

extension String {
    /// The string without one trailing `suffix`.
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
