import Foundation
import NoteTakerKit
import NoteTakerServer
import NoteTakerSync
import NoteTakerSyncProtocol

/// Sealing kept versions again after a rotation, over the same unreliable network: a
/// request lost, an answer lost after the server replaced the version, a replacement
/// delivered twice.
extension SimulatedNetwork {
    func keptVersions(token: String, sealedBelow: Int, after: String?) async throws(SyncError) -> KeptVersionsPage {
        try await faulty(token) { service, account, _ in try await service.keptVersions(for: account, sealedBelow: sealedBelow, after: after) }
    }

    func resealVersion(token: String, recordId: UUID, _ resealed: ResealedVersion) async throws(SyncError) {
        try await faulty(token) { service, account, twice in
            if twice { try? await service.resealVersion(of: recordId, resealed, for: account) }
            try await service.resealVersion(of: recordId, resealed, for: account)
            self.countResealed()
        }
    }

    /// Every version the server keeps of the account's notes.
    func allKeptVersions(token: String) async throws -> [KeptVersion] {
        let account = try await service.authenticate(token: token)
        var versions: [KeptVersion] = []
        var after: String?
        repeat {
            let page = try await service.keptVersions(for: account, sealedBelow: AccountKeys.maximumDataKeys, after: after)
            versions += page.versions
            after = page.next
        } while after != nil
        return versions
    }

    /// Handles one request of the session `token` in its turn, with the fault drawn for it
    /// (`twice`: delivered twice).
    func faulty<T: Sendable>(
        _ token: String, _ handle: (SyncService, StoredAccount, _ twice: Bool) async throws -> T
    ) async throws(SyncError) -> T {
        try await faultyTurn { service, twice in try await handle(service, try await service.authenticate(token: token), twice) }
    }

    /// Handles one request in its turn, with the fault drawn for it (`twice`: delivered twice).
    func faultyTurn<T: Sendable>(_ handle: (SyncService, _ twice: Bool) async throws -> T) async throws(SyncError) -> T {
        try await takeTurn()
        defer { endTurn() }
        let fault = nextFault(allowDelay: false)
        if fault == .dropRequest { throw .unreachable("request lost") }
        do {
            let answer = try await handle(service, fault == .duplicate)
            if fault == .dropResponse { throw SyncError.unreachable("answer lost") }
            return answer
        } catch let error as SyncServerError {
            throw Self.translate(error)
        } catch {
            throw error as? SyncError ?? .unreachable("\(error)")
        }
    }
}
