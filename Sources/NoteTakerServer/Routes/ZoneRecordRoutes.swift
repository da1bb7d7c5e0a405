import Foundation
import Hummingbird
import NoteTakerSyncProtocol

/// A shared zone's records and their versions (docs/sharing.md §4), with the private zone's
/// rules: a member who accepted fetches changes and versions, the owner and editors send
/// batches and the versions of a note moved in. Its files are under ``AssetRoutes``.
struct ZoneRecordRoutes {
    let service: SyncService

    func register(on router: Router<SyncRequestContext>) {
        router.get("/v1/zones/:zone/changes") { request, context in
            let holder = try await zoneHolder(request, context, writing: false)
            let (query, limit) = try SyncRoutes.changesQuery(request)
            return JSONBody.response(try await service.changes(for: holder, query, limit: limit))
        }
        router.post("/v1/zones/:zone/records/modify") { request, context in
            let (account, _) = try await service.account(of: request, context)
            let (batch, fieldsJSON) = try await SyncRoutes.modifyRequest(request)
            return JSONBody.response(try await service.modifyZone(context.parameters.get("zone") ?? "", batch, fieldsJSON: fieldsJSON, by: account))
        }
        router.get("/v1/zones/:zone/records/:id/versions") { request, context in
            let holder = try await zoneHolder(request, context, writing: false)
            return try JSONBody.response(try await service.versions(of: try SyncRoutes.noteId(context), for: holder))
        }
        router.post("/v1/zones/:zone/versions") { request, context in
            let holder = try await zoneHolder(request, context, writing: false)
            let query = try await JSONBody.decode(VersionsQuery.self, from: request, limit: 64 * 1024)
            return try JSONBody.response(try await service.versions(of: query, for: holder))
        }
        router.post("/v1/zones/:zone/records/:id/versions") { request, context in
            let (account, _) = try await service.account(of: request, context)
            let moved = try await JSONBody.decode(MovedVersions.self, from: request)
            return try JSONBody.response(try await service.addZoneVersions(
                context.parameters.get("zone") ?? "", of: try SyncRoutes.noteId(context), moved, by: account))
        }
    }

    private func zoneHolder(_ request: Request, _ context: SyncRequestContext, writing: Bool) async throws -> StoredAccount {
        let (account, _) = try await service.account(of: request, context)
        return try await service.zoneHolder(zone: context.parameters.get("zone") ?? "", for: account, writing: writing)
    }
}
