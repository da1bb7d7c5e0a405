import Foundation
import Hummingbird
import HTTPTypes
import NoteTakerSyncProtocol

/// Registers every route of ``SyncAPI`` on a router, over a ``SyncService``.
struct SyncRoutes {
    let service: SyncService
    /// Who a request comes from, behind the proxies the server trusts.
    let clients: ClientAddressRule

    /// The address a request is throttled by.
    func client(_ request: Request, _ context: SyncRequestContext) -> String {
        clients.client(
            peer: context.remoteAddress?.ipAddress, forwarded: request.headers[values: .forwarded],
            forwardedFor: request.headers[values: .xForwardedFor])
    }

    func register(on router: Router<SyncRequestContext>) {
        router.get("/v1/health") { _, _ in
            let health = await service.checkedHealth()
            return try JSONBody.response(health, status: health.status == "ok" ? .ok : .serviceUnavailable)
        }
        router.get("/v1/openapi.json") { _, _ in
            let data = try OpenAPIDocument.data()
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
        router.post("/v1/accounts") { request, _ in
            let credentials = try await JSONBody.decode(Credentials.self, from: request)
            return try JSONBody.response(try await service.register(credentials), status: .created)
        }
        router.get("/v1/login-parameters") { request, _ in
            try JSONBody.response(try await service.loginParameters(username: request.uri.queryParameters.get("username") ?? ""))
        }
        router.get("/v1/accounts/current/keys") { request, context in
            let (account, _) = try await service.account(of: request, context)
            return try JSONBody.response(try await service.keys(of: account))
        }
        router.put("/v1/accounts/current/recovery") { request, context in
            let (account, _) = try await service.account(of: request, context)
            let setup = try await JSONBody.decode(RecoverySetup.self, from: request)
            try await service.setRecovery(setup, account: account, from: client(request, context))
            return Response(status: .noContent)
        }
        router.post("/v1/accounts/current/data-keys") { request, context in
            let (account, _) = try await service.account(of: request, context)
            let addition = try await JSONBody.decode(DataKeyAddition.self, from: request)
            try await service.addDataKey(addition, account: account, from: client(request, context))
            return Response(status: .noContent)
        }
        router.put("/v1/accounts/current/identity") { request, context in
            let (account, _) = try await service.account(of: request, context)
            let addition = try await JSONBody.decode(IdentityAddition.self, from: request)
            try await service.addIdentity(addition, account: account, from: client(request, context))
            return Response(status: .noContent)
        }
        router.get("/v1/users/:name/identity") { request, context in
            _ = try await service.account(of: request, context)
            let name = context.parameters.get("name").flatMap { $0.removingPercentEncoding } ?? ""
            return try JSONBody.response(try await service.identity(ofUserNamed: name))
        }
        router.post("/v1/accounts/recovery") { request, context in
            let body = try await JSONBody.decode(RecoveryRequest.self, from: request)
            return try JSONBody.response(try await service.recoveryKeys(body, from: client(request, context)))
        }
        router.put("/v1/accounts/recovery") { request, context in
            let body = try await JSONBody.decode(RecoveryRequest.self, from: request)
            try await service.recover(body, from: client(request, context))
            return Response(status: .noContent)
        }
        router.get("/v1/accounts/current") { request, context in
            let (account, _) = try await service.account(of: request, context)
            return try JSONBody.response(try await service.status(of: account))
        }
        router.put("/v1/accounts/current/password") { request, context in
            let (account, token) = try await service.account(of: request, context)
            let change = try await JSONBody.decode(PasswordChange.self, from: request)
            try await service.changePassword(change, account: account, token: token, from: client(request, context))
            return Response(status: .noContent)
        }
        router.post("/v1/sessions") { request, context in
            let credentials = try await JSONBody.decode(Credentials.self, from: request)
            let address = client(request, context)
            do {
                return try JSONBody.response(try await service.login(credentials, from: address), status: .created)
            } catch let error as SyncServerError where error.code == .unauthorized || error.code == .tooManyRequests {
                // For the operator (and fail2ban): who tried which name from where. Never the password.
                context.logger.notice(
                    error.code == .unauthorized ? "failed log-in" : "log-in refused: too many failed attempts",
                    metadata: ["user": "\(credentials.username)", "client": "\(address)"])
                throw error
            }
        }
        router.delete("/v1/sessions/current") { request, context in
            let (_, token) = try await service.account(of: request, context)
            try await service.logout(token: token)
            return Response(status: .noContent)
        }
        router.put("/v1/sessions/current") { request, context in
            let (account, token) = try await service.account(of: request, context)
            try await service.nameSession(try await JSONBody.decode(SessionName.self, from: request), account: account, token: token)
            return Response(status: .noContent)
        }
        router.get("/v1/sessions") { request, context in
            let (account, token) = try await service.account(of: request, context)
            return try JSONBody.response(try await service.sessions(of: account, token: token))
        }
        router.delete("/v1/sessions/:id") { request, context in
            let (account, _) = try await service.account(of: request, context)
            try await service.endSession(id: context.parameters.get("id") ?? "", account: account)
            return Response(status: .noContent)
        }
        router.get("/v1/changes") { request, context in
            let (account, token) = try await service.account(of: request, context)
            let (query, limit) = try Self.changesQuery(request)
            return JSONBody.response(try await service.changes(for: account, query, limit: limit, session: token))
        }
        router.post("/v1/records/modify") { request, context in
            let (account, _) = try await service.account(of: request, context)
            let (batch, fieldsJSON) = try await Self.modifyRequest(request)
            return JSONBody.response(try await service.modify(batch, fieldsJSON: fieldsJSON, for: account))
        }
        router.get("/v1/records/:id/versions") { request, context in
            let (account, _) = try await service.account(of: request, context)
            return try JSONBody.response(try await service.versions(of: try Self.noteId(context), for: account))
        }
        router.put("/v1/records/:id/versions") { request, context in
            let (account, _) = try await service.account(of: request, context)
            try await service.resealVersion(of: try Self.noteId(context), try await JSONBody.decode(ResealedVersion.self, from: request), for: account)
            return Response(status: .noContent)
        }
        router.post("/v1/records/:id/versions") { request, context in
            let (account, _) = try await service.account(of: request, context)
            return try JSONBody.response(try await service.addMovedVersions(
                of: try Self.noteId(context), try await JSONBody.decode(MovedVersions.self, from: request), for: account))
        }
        router.post("/v1/versions") { request, context in
            let (account, _) = try await service.account(of: request, context)
            let query = try await JSONBody.decode(VersionsQuery.self, from: request, limit: 64 * 1024)
            return try JSONBody.response(try await service.versions(of: query, for: account))
        }
        router.get("/v1/accounts/current/versions") { request, context in
            let (account, _) = try await service.account(of: request, context)
            let after = request.uri.queryParameters.get("after")
            return try JSONBody.response(try await service.keptVersions(for: account, sealedBelow: try Self.sealedBelow(request), after: after))
        }
        router.get("/v1/accounts/current/files") { request, context in
            let (account, _) = try await service.account(of: request, context)
            let after = request.uri.queryParameters.get("after")
            return try JSONBody.response(try await service.keptFiles(for: account, sealedBelow: try Self.sealedBelow(request), after: after))
        }
        router.delete("/v1/accounts/current/plaintext") { request, context in
            let (account, _) = try await service.account(of: request, context)
            return try JSONBody.response(try await service.dropPlaintext(for: account))
        }
        AssetRoutes(service: service).register(on: router)
        ZoneRecordRoutes(service: service).register(on: router)
        PublishedRoutes(service: service).register(on: router)
        ShareRoutes(service: service).register(on: router)
        EventRoutes(service: service).register(on: router)
    }
}

extension SyncRoutes {
    /// A fetch of changes as its query asks it, and its page size (`nil`: the default).
    static func changesQuery(_ request: Request) throws(SyncServerError) -> (ChangesQuery, limit: Int?) {
        let parameters = request.uri.queryParameters
        var limit: Int?
        if let text = parameters.get("limit") {
            guard let value = Int(text) else { throw .badRequest("limit must be a whole number.") }
            limit = value
        }
        var device: UUID?
        if let text = parameters.get("device") {
            guard let value = UUID(uuidString: text) else { throw .badRequest("device must be a UUID.") }
            device = value
        }
        var listing = false
        if let text = parameters.get("listing") {
            guard let value = Bool(text) else { throw .badRequest("listing must be true or false.") }
            listing = value
        }
        var holding: String?
        if let text = parameters.get("holding") {
            guard text.count <= 18, Int64(text).map({ $0 >= 0 }) == true else {
                throw .badRequest("holding must be a change tag (a whole number of at most 18 digits).")
            }
            holding = text
        }
        let query = ChangesQuery(
            since: parameters.get("since"), deviceId: device, authoredToken: parameters.get("authored"), listing: listing, holding: holding)
        return (query, limit)
    }

    /// A batch as the request's body carries it, with each change's fields as written.
    static func modifyRequest(_ request: Request) async throws -> (ModifyRequest, fieldsJSON: [String?]) {
        var fieldsJSON: [String?] = []
        let batch = try await JSONBody.read(request) { bytes throws(WireJSONError) in try ModifyRequest(wireJSON: bytes, fieldsJSON: &fieldsJSON) }
        return (batch, fieldsJSON)
    }

    /// The note the path's `:id` names.
    static func noteId(_ context: SyncRequestContext) throws(SyncServerError) -> UUID {
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else {
            throw SyncServerError(.notFound, "No note has the id '\(context.parameters.get("id") ?? "")'.")
        }
        return id
    }

    /// The data key version a listing of what to seal again asks below (`sealedBelow`).
    static func sealedBelow(_ request: Request) throws(SyncServerError) -> Int {
        guard let below = request.uri.queryParameters.get("sealedBelow").flatMap({ Int($0) }) else {
            throw .badRequest("sealedBelow must be a data key's version (a whole number).")
        }
        return below
    }
}

/// The OpenAPI document, built into the server (see the EmbedFiles plugin).
enum OpenAPIDocument {
    /// The document's bytes.
    static func data() throws -> Data {
        guard let document = EmbeddedFiles.files["openapi.json"] else {
            throw SyncServerError(.internalError, "The server was built without its OpenAPI document.")
        }
        return document
    }
}

extension HTTPField.Name {
    /// RFC 7239's header of the addresses a request was forwarded for.
    static let forwarded = HTTPField.Name("Forwarded")!
    /// The de facto header of the same.
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
}
