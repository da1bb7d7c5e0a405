import Foundation
import Hummingbird
import NoteTakerSyncProtocol

/// Upload, existence check and download of attachment files, by SHA-256: an account's own
/// (`/v1/assets/…`), and a shared zone's (`/v1/zones/{zone}/assets/…`, members only;
/// uploads by its owner and editors).
struct AssetRoutes {
    let service: SyncService

    func register(on router: Router<SyncRequestContext>) {
        register(on: router, under: "/v1/assets") { request, context, _ in try await service.account(of: request, context).0 }
        register(on: router, under: "/v1/zones/:zone/assets") { request, context, writing in
            let (account, _) = try await service.account(of: request, context)
            return try await service.zoneHolder(zone: context.parameters.get("zone") ?? "", for: account, writing: writing)
        }
    }

    /// The routes under `path`, whose files are those of the account `owner` answers (for
    /// writing or not), a zone's holder for a zone's.
    private func register(
        on router: Router<SyncRequestContext>, under path: String,
        owner: @escaping @Sendable (Request, SyncRequestContext, _ writing: Bool) async throws -> StoredAccount
    ) {
        router.put("\(path)/:hash") { request, context in
            let account = try await owner(request, context, true)
            let hash = context.parameters.get("hash") ?? ""
            if let length = request.headers[.contentLength].flatMap(Int64.init), length > SyncLimits.maxStoredAssetBytes {
                throw SyncServerError(.tooLarge, "Attachment too large. Maximum size is 250MB.")
            }
            var resealed = false
            if let text = request.uri.queryParameters.get("resealed") {
                guard let value = Bool(text) else { throw SyncServerError.badRequest("resealed must be true or false.") }
                resealed = value
            }
            let chunks = request.body.map { Array(buffer: $0) }
            try await service.inOwnersQuota(of: account) { () throws(SyncServerError) in
                try await service.storeAsset(hash: hash, chunks: chunks, resealed: resealed, for: account)
            }
            return Response(status: .noContent)
        }
        router.head("\(path)/:hash") { request, context in
            let account = try await owner(request, context, false)
            let exists = try await service.assetExists(hash: context.parameters.get("hash") ?? "", for: account)
            return Response(status: exists ? .ok : .notFound)
        }
        router.get("\(path)/:hash") { request, context in
            let account = try await owner(request, context, false)
            let hash = context.parameters.get("hash") ?? ""
            let size = try await service.assetSize(hash: hash, for: account)
            let body = ResponseBody(contentLength: Int(size)) { writer in
                try await service.readAsset(hash: hash) { try await writer.write(ByteBuffer(bytes: $0)) }
                try await writer.finish(nil)
            }
            return Response(status: .ok, headers: [.contentType: "application/octet-stream"], body: body)
        }
    }
}
