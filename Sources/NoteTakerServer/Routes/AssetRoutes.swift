import Foundation
import Hummingbird
import NoteTakerSyncProtocol

/// Upload, existence check and download of attachment files, by SHA-256.
struct AssetRoutes {
    let service: SyncService

    func register(on router: Router<SyncRequestContext>) {
        router.put("/v1/assets/:hash") { request, context in
            let (account, _) = try await service.account(of: request, context)
            let hash = context.parameters.get("hash") ?? ""
            if let length = request.headers[.contentLength].flatMap(Int64.init), length > SyncLimits.maxStoredAssetBytes {
                throw SyncServerError(.tooLarge, "Attachment too large. Maximum size is 250MB.")
            }
            var resealed = false
            if let text = request.uri.queryParameters.get("resealed") {
                guard let value = Bool(text) else { throw SyncServerError.badRequest("resealed must be true or false.") }
                resealed = value
            }
            try await service.storeAsset(hash: hash, chunks: request.body.map { Array(buffer: $0) }, resealed: resealed, for: account)
            return Response(status: .noContent)
        }
        router.head("/v1/assets/:hash") { request, context in
            let (account, _) = try await service.account(of: request, context)
            let exists = try await service.assetExists(hash: context.parameters.get("hash") ?? "", for: account)
            return Response(status: exists ? .ok : .notFound)
        }
        router.get("/v1/assets/:hash") { request, context in
            let (account, _) = try await service.account(of: request, context)
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
