import Foundation
import NoteTakerKit
import NoteTakerSync
import NoteTakerSyncProtocol
import Synchronization

/// A real transport with one way of failing put in front of it, as a network or a server
/// fails: for tests that need a fault at one exact point.
final class FaultyTransport: SyncTransport, Sendable {
    enum Fault: Sendable, Equatable {
        /// The network goes as a listing's first page is asked for.
        case listingCut
        /// The network goes as changes are asked for.
        case fetchCut
        /// The network goes as changes are asked for once a batch was answered.
        case fetchCutAfterBatch
        /// A listing's first page says more is coming, and the network goes as the next
        /// one is asked for.
        case listingCutAfterFirstPage
        /// A fetch's first page (one that is not a listing's) says more is coming, and the
        /// network goes as the next one is asked for: the first page stays staged.
        case fetchCutAfterFirstPage
        /// Every batch is applied, and its answer lost.
        case answersLost
        /// The second batch never reaches the server (the first is answered).
        case secondBatchLost
        /// No batch reaches the server.
        case requestsLost
        /// The batch that holds a change of this record never reaches the server, whatever
        /// order the batches in flight together arrive in.
        case batchLost(holding: UUID)
        /// The server has none of the files asked for.
        case filesMissing
        /// The network goes as the server is asked to drop its plaintext (a conversion's last step).
        case plaintextDropCut
        /// The server refuses the versions of a note moved in (a 400).
        case movedVersionsRefused
        /// The network goes as the versions of a note moved in are sent.
        case movedVersionsCut
    }

    private let base: HTTPSyncTransport
    private let fault: Fault
    private let count = Mutex(0)
    private let modifies = Mutex(0)
    private let fetches = Mutex(0)

    init(_ base: HTTPSyncTransport, _ fault: Fault) {
        self.base = base
        self.fault = fault
    }

    /// How many times the fault happened.
    var injected: Int { count.withLock { $0 } }

    private func inject() {
        count.withLock { $0 += 1 }
    }

    func health() async throws(SyncError) -> HealthResponse { try await base.health() }

    func fetchChanges(_ query: ChangesQuery) async throws(SyncError) -> ChangesResponse {
        let cut = switch fault {
        case .fetchCut: true
        case .listingCut: query.since == nil && query.listing
        case .fetchCutAfterBatch: modifies.withLock { $0 > 0 }
        default: false
        }
        if cut {
            inject()
            throw .unreachable("the network went")
        }
        if fault == .fetchCutAfterFirstPage, !query.listing {
            guard fetches.withLock({ count in
                count += 1
                return count == 1
            }) else {
                inject()
                throw .unreachable("the network went")
            }
            var page = try await base.fetchChanges(query)
            page.moreComing = true
            return page
        }
        guard fault == .listingCutAfterFirstPage, query.listing else { return try await base.fetchChanges(query) }
        guard query.since == nil else {
            inject()
            throw .unreachable("the network went")
        }
        var page = try await base.fetchChanges(query)
        page.moreComing = true
        return page
    }

    func modify(_ request: ModifyRequest, fieldsJSON: [String?]) async throws(SyncError) -> ModifyResponse {
        if fault == .requestsLost {
            inject()
            throw .unreachable("the network went")
        }
        if case .batchLost(let record) = fault, request.changes.contains(where: { $0.recordId == record }) {
            inject()
            throw .unreachable("the network went")
        }
        if fault == .secondBatchLost {
            let second = modifies.withLock { count in
                count += 1
                return count == 2
            }
            if second {
                inject()
                throw .unreachable("the network went")
            }
            return try await base.modify(request, fieldsJSON: fieldsJSON)
        }
        let answer = try await base.modify(request, fieldsJSON: fieldsJSON)
        if fault == .fetchCutAfterBatch { modifies.withLock { $0 += 1 } }
        guard fault == .answersLost else { return answer }
        inject()
        throw .unreachable("answer lost")
    }

    func assetExists(hash: String) async throws(SyncError) -> Bool { try await base.assetExists(hash: hash) }

    func uploadAsset(hash: String, from file: URL) async throws(SyncError) { try await base.uploadAsset(hash: hash, from: file) }

    func keptVersions(sealedBelow: Int, after: String?) async throws(SyncError) -> KeptVersionsPage {
        try await base.keptVersions(sealedBelow: sealedBelow, after: after)
    }

    func resealVersion(_ recordId: UUID, _ resealed: ResealedVersion) async throws(SyncError) {
        try await base.resealVersion(recordId, resealed)
    }

    func addVersions(_ recordId: UUID, _ moved: MovedVersions) async throws(SyncError) -> Int {
        switch fault {
        case .movedVersionsRefused:
            inject()
            throw .server(code: APIErrorCode.badRequest.rawValue, message: "A version's replacedAt must not be in the future.")
        case .movedVersionsCut:
            inject()
            throw .unreachable("the network went")
        default:
            return try await base.addVersions(recordId, moved)
        }
    }

    func keptFiles(sealedBelow: Int, after: String?) async throws(SyncError) -> KeptFilesPage {
        try await base.keptFiles(sealedBelow: sealedBelow, after: after)
    }

    func uploadResealedAsset(address: String, from file: URL) async throws(SyncError) {
        try await base.uploadResealedAsset(address: address, from: file)
    }

    func accountStatus() async throws(SyncError) -> AccountStatus { try await base.accountStatus() }

    func dropPlaintext() async throws(SyncError) -> PlaintextDropped {
        guard fault == .plaintextDropCut else { return try await base.dropPlaintext() }
        inject()
        throw .unreachable("the network went")
    }

    func downloadAsset(hash: String, to file: URL) async throws(SyncError) {
        guard fault == .filesMissing else { return try await base.downloadAsset(hash: hash, to: file) }
        inject()
        throw .server(code: APIErrorCode.notFound.rawValue, message: "No file \(hash).")
    }
}
