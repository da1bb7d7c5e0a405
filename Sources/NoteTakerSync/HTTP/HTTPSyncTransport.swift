import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NoteTakerSyncProtocol
import NoteTakerKit

/// The real transport: the sync API over HTTPS (or HTTP on this machine), with a bearer token.
public struct HTTPSyncTransport: SyncTransport {
    /// The server's base address.
    public let server: URL
    /// The session's bearer token, once logged in.
    public let token: String?
    /// Certificates the server is trusted by besides the system's, if the account has any.
    public let trusted: TrustedCertificates?
    /// The shared zone whose records, versions and files this transport syncs (docs/sharing.md
    /// §3.7), lowercase; `nil`: the account's own.
    public private(set) var zone: String?
    /// The shared client for this server: direct, or through the environment's proxy.
    ///
    /// - Throws: ``SyncError/unreachable(_:)`` when the environment names a proxy that cannot
    ///   be used (requests never go around it).
    func client() throws(SyncError) -> HTTPClient {
        if let refusal = SyncHTTPClient.proxyRefusal(for: server) { throw .unreachable(refusal) }
        return SyncHTTPClient.client(for: server, trusting: trusted)
    }

    /// Creates a transport. A plain `http://` address that is not on this machine is
    /// refused unless `allowInsecure` is set: sync carries notes and passwords. `trusted`
    /// adds certificates to trust the server by (a private authority's, or its own).
    public init(server: URL, token: String?, allowInsecure: Bool = false, trusted: TrustedCertificates? = nil) throws(SyncError) {
        try Self.checkSecure(server, allowInsecure: allowInsecure)
        self.server = server
        self.token = token
        self.trusted = trusted
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

    /// This transport for the records, versions and files of the shared zone `zone` (its
    /// id, lowercase), as a member of it: an engine syncs a zone through it as it syncs the
    /// account's own records.
    public func inZone(_ zone: String) -> HTTPSyncTransport {
        var scoped = self
        scoped.zone = zone
        return scoped
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
        if let device = query.deviceId { items.append(URLQueryItem(name: "device", value: device.key)) }
        if let authored = query.authoredToken { items.append(URLQueryItem(name: "authored", value: authored)) }
        if query.listing { items.append(URLQueryItem(name: "listing", value: "true")) }
        if let holding = query.holding { items.append(URLQueryItem(name: "holding", value: holding)) }
        return try await exchange(SyncAPI.changes, query: items) { try ChangesResponse(wireJSON: Array($0)) }
    }

    /// Sends a batch of saves and deletes, with each change's fields as written in `fieldsJSON` where given.
    public func modify(_ request: ModifyRequest, fieldsJSON: [String?]) async throws(SyncError) -> ModifyResponse {
        try await exchange(SyncAPI.modify, body: ByteBuffer(bytes: request.wireJSON(fieldsJSON: fieldsJSON))) {
            try ModifyResponse(wireJSON: Array($0))
        }
    }

    /// The earlier versions of a note that the server kept, newest first.
    public func recordVersions(_ recordId: UUID) async throws(SyncError) -> [RecordVersion] {
        try await json(RecordVersionsResponse.self, SyncAPI.recordVersions, id: recordId.key).versions
    }

    /// The earlier versions of many notes at once, and those the server left for another
    /// request; a note at a time from a server older than the route (a 404 without an error
    /// of the API's).
    public func notesVersions(_ recordIds: [UUID]) async throws(SyncError) -> VersionsOfNotes {
        do {
            return try await json(VersionsOfNotes.self, SyncAPI.notesVersions, body: VersionsQuery(recordIds: recordIds))
        } catch .server(code: "404", _) {
            return try await notesVersionsOneAtATime(recordIds)
        }
    }

    /// One stretch of the account's kept versions not sealed with `sealedBelow` or a newer key.
    public func keptVersions(sealedBelow: Int, after: String?) async throws(SyncError) -> KeptVersionsPage {
        var items = [URLQueryItem(name: "sealedBelow", value: String(sealedBelow))]
        if let after { items.append(URLQueryItem(name: "after", value: after)) }
        return try await json(KeptVersionsPage.self, SyncAPI.keptVersions, query: items)
    }

    /// Gives the server versions of a note that moved here from another zone; how many it kept.
    public func addVersions(_ recordId: UUID, _ moved: MovedVersions) async throws(SyncError) -> Int {
        try await json(MovedVersionsKept.self, SyncAPI.addVersions, id: recordId.key, body: moved).kept
    }

    /// Replaces a kept version with the same version sealed with a newer key.
    public func resealVersion(_ recordId: UUID, _ resealed: ResealedVersion) async throws(SyncError) {
        try await exchange(SyncAPI.resealVersion, id: recordId.key, body: try Self.encoded(resealed), accepting: [204]) { _ in }
    }

    /// Deletes what the converted account still holds in plain text.
    public func dropPlaintext() async throws(SyncError) -> PlaintextDropped {
        try await json(PlaintextDropped.self, SyncAPI.dropPlaintext)
    }

    // MARK: Requests

    func makeRequest(
        _ endpoint: SyncAPI.Endpoint, hash: String? = nil, id: String? = nil, name: String? = nil, query: [URLQueryItem] = []
    ) -> HTTPClientRequest {
        var path = zone.map { zone in (Self.zoneEndpoints[endpoint] ?? endpoint).path.replacingOccurrences(of: "{zone}", with: zone) }
            ?? endpoint.path
        if let hash { path = path.replacingOccurrences(of: "{hash}", with: hash) }
        if let id { path = path.replacingOccurrences(of: "{id}", with: id) }
        if let name { path = path.replacingOccurrences(of: "{name}", with: name) }
        var components = URLComponents(url: server, resolvingAgainstBaseURL: false) ?? URLComponents()
        components.path = components.path.trimmingSuffix("/") + path
        components.queryItems = query.isEmpty ? nil : query
        var request = HTTPClientRequest(url: (components.url ?? server).absoluteString)
        request.method = HTTPMethod(rawValue: endpoint.method)
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        return request
    }

    /// The routes of a shared zone that stand for the account's own, in a transport
    /// ``inZone(_:)``; the others (sessions, keys, shares) are the account's in either.
    private static let zoneEndpoints: [SyncAPI.Endpoint: SyncAPI.Endpoint] = [
        SyncAPI.changes: SyncAPI.zoneChanges, SyncAPI.modify: SyncAPI.modifyZone, SyncAPI.recordVersions: SyncAPI.zoneRecordVersions,
        SyncAPI.addVersions: SyncAPI.addZoneVersions, SyncAPI.notesVersions: SyncAPI.zoneNotesVersions,
        SyncAPI.uploadAsset: SyncAPI.uploadZoneAsset, SyncAPI.assetExists: SyncAPI.zoneAssetExists, SyncAPI.downloadAsset: SyncAPI.downloadZoneAsset,
    ]

    /// Sends a JSON request and decodes the JSON answer.
    func json<T: Decodable>(
        _ type: T.Type, _ endpoint: SyncAPI.Endpoint, id: String? = nil, query: [URLQueryItem] = [], body: (any Encodable)? = nil
    ) async throws(SyncError) -> T {
        try await exchange(endpoint, id: id, query: query, body: body.map(Self.encoded)) { try JSONDecoder().decode(T.self, from: $0) }
    }

    /// A value as a JSON request body.
    static func encoded(_ value: any Encodable) throws(SyncError) -> ByteBuffer {
        do {
            return ByteBuffer(data: try JSONEncoder().encode(value))
        } catch {
            throw .server(code: "badRequest", message: "The request could not be encoded.")
        }
    }

    /// Sends a request with a JSON body, if any, and reads the answer with `read`.
    func exchange<T>(
        _ endpoint: SyncAPI.Endpoint, id: String? = nil, query: [URLQueryItem] = [], body: ByteBuffer? = nil,
        accepting: Set<Int> = [200, 201], read: (Data) throws -> T
    ) async throws(SyncError) -> T {
        var request = makeRequest(endpoint, id: id, query: query)
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(body)
        }
        let (data, _) = try await send(request, accepting: accepting)
        do {
            return try read(data)
        } catch {
            throw .server(code: "badResponse", message: "The server's answer was not what the sync API promises (\(endpoint.method) \(endpoint.path)).")
        }
    }

    /// Sends a request and reads its answer, up to `limit` bytes (an answer that declares or
    /// sends more is not read); any status outside `accepting` becomes a `SyncError`. The
    /// request may take up to ``SyncHTTPClient/requestTimeout`` in all, or until `deadline`.
    func send(
        _ request: HTTPClientRequest, accepting: Set<Int>, limit: Int = SyncLimits.maxResponseBytes, deadline: NIODeadline? = nil
    ) async throws(SyncError) -> (Data, Int) {
        let status: Int
        let body: ByteBuffer
        let location: String?
        let client = try client()
        do {
            let response = try await client.execute(request, deadline: deadline ?? .now() + SyncHTTPClient.requestTimeout)
            status = Int(response.status.code)
            location = response.headers.first(name: "Location")
            body = try await response.body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw .server(code: "tooLarge",
                          message: "The server sent an answer of over \(SyncError.megabytes(Int64(limit))), more than the sync API allows; it was not read.")
        } catch {
            throw SyncHTTPClient.failure(error)
        }
        let data = Data(buffer: body, byteTransferStrategy: .noCopy)
        try Self.check(status: status, body: data, accepting: accepting, location: location)
        return (data, status)
    }

    /// Turns a status outside `accepting` into the `SyncError` its body (an `APIErrorBody`) names.
    ///
    /// A redirect (3xx) is never followed: the error names where it points, so that a person
    /// can log in there if it is the server's new address.
    static func check(status: Int, body: Data, accepting: Set<Int>, location: String? = nil) throws(SyncError) {
        if accepting.contains(status) { return }
        if (300..<400).contains(status) {
            throw .server(code: "redirected", message: "The sync server answered with a redirect to \(location ?? "another address"). "
                + "NoteTaker does not follow redirects, so that your session and notes go nowhere else: if that is the "
                + "server's address now, log in there (notetaker account login --server ADDRESS).")
        }
        let error = try? JSONDecoder().decode(APIErrorBody.self, from: body)
        switch (status, error?.error) {
        case (_, .serverRestored?): throw .serverRestored
        case (_, .tombstonesPurged?): throw .tombstonesPurged
        case (_, .resyncRequired?), (410, _): throw .resyncRequired
        case (_, .sessionEnded?), (401, nil): throw .notLoggedIn
        case (502...504, _):
            // A health answer or an error body says why (the server cannot reach its database).
            let said = (try? JSONDecoder().decode(Explanation.self, from: body))?.message
            throw .unreachable(said.map { "it answered \(status): \($0)" } ?? "the server answered \(status)")
        case (_, .quotaExceeded?) where error?.usedBytes != nil && error?.quotaBytes != nil:
            throw .storageFull(usedBytes: error?.usedBytes ?? 0, quotaBytes: error?.quotaBytes ?? 0)
        default:
            throw .server(code: error?.error.rawValue ?? String(status), message: error?.message ?? "HTTP \(status)")
        }
    }
}

/// The `message` of any answer that has one.
private struct Explanation: Decodable {
    var message: String?
}

extension String {
    /// The string without one trailing `suffix`.
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
