import Foundation
import Hummingbird
import NoteTakerHTTP
import NoteTakerSyncProtocol

/// Upload, existence check and download of attachment files, by SHA-256.
struct AssetRoutes {
    let service: SyncService

    func register(on router: Router<SyncRequestContext>) {
        router.put("/v1/assets/:hash") { request, context in
            let (account, _) = try await service.account(of: request)
            let hash = context.parameters.get("hash") ?? ""
            if let length = request.headers[.contentLength].flatMap(Int64.init), length > SyncLimits.maxAssetBytes {
                throw SyncServerError(.tooLarge, "Attachment too large. Maximum size is 250MB.")
            }
            try await service.storeAsset(hash: hash, chunks: request.body.map { Array(buffer: $0) }, for: account)
            return Response(status: .noContent)
        }
        router.head("/v1/assets/:hash") { request, context in
            let (account, _) = try await service.account(of: request)
            let exists = try await service.assetExists(hash: context.parameters.get("hash") ?? "", for: account)
            return Response(status: exists ? .ok : .notFound)
        }
        router.get("/v1/assets/:hash") { request, context in
            let (account, _) = try await service.account(of: request)
            let url = try await service.assetFile(hash: context.parameters.get("hash") ?? "", for: account)
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? nil
            return Response(status: .ok, headers: [.contentType: "application/octet-stream"], body: .file(at: url, size: size))
        }
    }
}
