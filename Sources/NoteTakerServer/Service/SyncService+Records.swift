import Foundation
import NoteTakerSyncProtocol

extension SyncService {
    /// The page size when the client does not ask for one.
    static let defaultPageSize = 500

    /// Records changed since `token` (`nil` for everything), a page at a time.
    public func changes(for account: StoredAccount, since token: String?, limit: Int?) async throws(SyncServerError) -> ChangesResponse {
        let limit = limit ?? Self.defaultPageSize
        guard (1...SyncLimits.maxPageSize).contains(limit) else {
            throw .badRequest("limit must be between 1 and \(SyncLimits.maxPageSize).")
        }
        let latest = try await storing { try await storage.latestSequence(account: account.id) }
        let after = try sequence(of: token, latest: latest)
        let page = try await storing { try await storage.changes(account: account.id, after: after, limit: limit + 1) }
        let records = Array(page.prefix(limit))
        let last = records.last.flatMap { Int64($0.changeTag) } ?? (page.isEmpty ? latest : after)
        return ChangesResponse(records: records, token: changeToken(last), moreComing: page.count > limit)
    }

    /// Applies a batch: validated first (nothing is applied if any change is malformed),
    /// then atomically; devices listening are told.
    public func modify(_ request: ModifyRequest, for account: StoredAccount) async throws(SyncServerError) -> ModifyResponse {
        guard request.changes.count <= SyncLimits.maxBatchSize else {
            throw SyncServerError(.tooLarge, "A batch holds at most \(SyncLimits.maxBatchSize) changes; this one has \(request.changes.count). Nothing was saved.")
        }
        for change in request.changes {
            try RecordVersioning.validate(change)
        }
        let response = try await storing { try await storage.modify(account: account.id, request: request, quota: quotaBytes) }
        if response.results.contains(where: { $0.outcome == .saved }) {
            let latest = try await storing { try await storage.latestSequence(account: account.id) }
            await notifier.notify(account: account.id, token: changeToken(latest))
        }
        return response
    }

    /// A stream that yields a change token whenever the account's records change.
    public func events(for account: StoredAccount) async -> AsyncStream<String> {
        await notifier.subscribe(account: account.id)
    }

    /// The token that covers every change the account holds now.
    public func latestToken(for account: StoredAccount) async throws(SyncServerError) -> String {
        changeToken(try await storing { try await storage.latestSequence(account: account.id) })
    }

    /// A token for "everything up to sequence `sequence`" on this server.
    func changeToken(_ sequence: Int64) -> String {
        "\(storage.serverId):\(sequence)"
    }

    /// The sequence a token stands for; a token from another server, a malformed one or one
    /// from the future answers "resync required".
    func sequence(of token: String?, latest: Int64) throws(SyncServerError) -> Int64 {
        guard let token, !token.isEmpty else { return 0 }
        let parts = token.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == Substring(storage.serverId),
              let sequence = Int64(parts[1]), sequence >= 0, sequence <= latest
        else {
            throw SyncServerError(.resyncRequired, "This change token is not usable on this server; fetch all changes again (no token).")
        }
        return sequence
    }
}
