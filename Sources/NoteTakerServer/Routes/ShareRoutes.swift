import Foundation
import Hummingbird
import NoteTakerSyncProtocol

/// Shared zones (docs/sharing.md §3): the owner puts a zone's members record and its key boxes;
/// members list their shares, fetch the record and their own boxes, accept or leave; the owner
/// deletes a share.
struct ShareRoutes {
    let service: SyncService

    func register(on router: Router<SyncRequestContext>) {
        router.get("/v1/zones") { request, context in
            let (account, _) = try await service.account(of: request, context)
            return try JSONBody.response(try await service.shares(of: account))
        }
        router.delete("/v1/zones/:zone") { request, context in
            let (account, _) = try await service.account(of: request, context)
            try await service.deleteShare(zone: context.parameters.get("zone") ?? "", by: account)
            return Response(status: .noContent)
        }
        router.put("/v1/zones/:zone/members") { request, context in
            let (account, _) = try await service.account(of: request, context)
            let signed = try await JSONBody.decode(SignedShareMembers.self, from: request, limit: 8 * ShareLimits.maxMembersBytes)
            try await service.putShareMembers(zone: context.parameters.get("zone") ?? "", signed, by: account)
            return Response(status: .noContent)
        }
        router.get("/v1/zones/:zone/members") { request, context in
            let (account, _) = try await service.account(of: request, context)
            var epoch: Int?
            if let text = request.uri.queryParameters.get("epoch") {
                guard let value = Int(text) else { throw SyncServerError.badRequest("epoch must be a whole number from 1.") }
                epoch = value
            }
            return try JSONBody.response(try await service.shareMembers(zone: context.parameters.get("zone") ?? "", epoch: epoch, for: account))
        }
        router.put("/v1/zones/:zone/keys") { request, context in
            let (account, _) = try await service.account(of: request, context)
            let boxes = try await JSONBody.decode([ZoneKeyBox].self, from: request)
            try await service.putZoneKeyBoxes(zone: context.parameters.get("zone") ?? "", boxes, by: account)
            return Response(status: .noContent)
        }
        router.get("/v1/zones/:zone/keys") { request, context in
            let (account, _) = try await service.account(of: request, context)
            return try JSONBody.response(try await service.zoneKeyBoxes(zone: context.parameters.get("zone") ?? "", for: account))
        }
        router.put("/v1/zones/:zone/membership") { request, context in
            let (account, _) = try await service.account(of: request, context)
            try await service.acceptShare(zone: context.parameters.get("zone") ?? "", by: account)
            return Response(status: .noContent)
        }
        router.delete("/v1/zones/:zone/membership") { request, context in
            let (account, _) = try await service.account(of: request, context)
            try await service.leaveShare(zone: context.parameters.get("zone") ?? "", by: account)
            return Response(status: .noContent)
        }
    }
}
