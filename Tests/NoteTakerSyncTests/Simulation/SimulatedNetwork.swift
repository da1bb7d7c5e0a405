import Foundation
import NoteTakerKit
import NoteTakerServer
import NoteTakerServerTestSupport
import NoteTakerSync
import NoteTakerSyncProtocol

/// The sync server, in process, and an unreliable network in front of it: requests that
/// never arrive, answers lost after the server applied the request, requests delivered
/// twice, and requests held back and delivered later, after others. The server can restart,
/// be backed up by its operator, and be restored from that backup.
///
/// Requests are handled one at a time, in the order they arrive, so that the faults (drawn
/// from the seed) fall on the same requests on every run; a request whose sender gave up
/// on it before its turn (a page fetched ahead and no longer wanted) never arrives.
actor SimulatedNetwork {
    private let directory: URL
    /// The server's storage, kept across restarts.
    private var configuration: ServerConfiguration
    /// The server's storage and files as its operator last backed them up.
    private var backup: (database: ServerDatabase, assets: [String: Data])?
    /// Where devices make the files they attach.
    nonisolated let filesDirectory: URL
    /// Attachment files, by content hash: the simulation judges records, not file transfer.
    private var assets: [String: Data] = [:]
    private(set) var service: SyncService
    /// What the server's storage runs beside it; stopped when the server restarts.
    private var running: Task<Void, Never>
    private var random: SeededGenerator
    private var delayed: [(account: StoredAccount, request: ModifyRequest)] = []
    /// Whether faults happen (off while healing).
    var faulty = true
    /// Whether a request is being handled, and the requests waiting for their turn.
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private(set) var faultsInjected = 0
    /// Kept versions the server replaced with one sealed again (sealed runs).
    private(set) var resealedVersions = 0

    init(seed: UInt64) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-sim-\(seed)-\(UUID().uuidString)")
        configuration = try await TestStorage.configuration(directory: directory.appendingPathComponent("server"))
        (service, running) = try await Self.makeService(configuration)
        random = SeededGenerator(seed: seed ^ 0x5EED)
        filesDirectory = directory.appendingPathComponent("device files")
        try FileManager.default.createDirectory(at: filesDirectory, withIntermediateDirectories: true)
    }

    func assetExists(hash: String) -> Bool { assets[hash] != nil }

    func uploadAsset(hash: String, from file: URL) throws(SyncError) {
        do {
            assets[hash] = try Data(contentsOf: file)
        } catch {
            throw .unreachable("upload failed: \(error)")
        }
    }

    func downloadAsset(hash: String, to file: URL) throws(SyncError) {
        guard let data = assets[hash] else { throw .server(code: "notFound", message: "No file \(hash).") }
        do {
            try data.write(to: file)
        } catch {
            throw .unreachable("download failed: \(error)")
        }
    }

    private static func makeService(_ configuration: ServerConfiguration) async throws -> (SyncService, Task<Void, Never>) {
        let backend = try await configuration.openBackend()
        return (backend.service, TestStorage.start(backend))
    }

    /// Counts a kept version the server replaced.
    func countResealed() { resealedVersions += 1 }

    /// Registers the account, with its key material in sealed runs.
    func register(keys: AccountKeys? = nil) async throws -> String {
        try await service.register(Credentials(username: "sim", password: "simulation", keys: keys)).token
    }

    /// Stops and reopens the server on the same files.
    func restart() async throws {
        try await takeTurn()
        defer { endTurn() }
        running.cancel()
        (service, running) = try await Self.makeService(configuration)
    }

    /// Stops the server, backs up its storage and files as the README says, and starts it again.
    func backUp() async throws {
        try await takeTurn()
        defer { endTurn() }
        running.cancel()
        let copy = try await TestStorage.backUp(configuration.database, into: directory.appendingPathComponent("backup"))
        backup = (copy, assets)
        (service, running) = try await Self.makeService(configuration)
    }

    /// Stops the server, puts the last backup in place of its storage and files, and starts
    /// it again, as an operator does after losing a disk; false (and nothing done) when it was
    /// never backed up.
    func restoreBackup() async throws -> Bool {
        try await takeTurn()
        defer { endTurn() }
        guard let backup else { return false }
        running.cancel()
        configuration.database = try await TestStorage.restore(backup.database, over: configuration.database)
        assets = backup.assets
        (service, running) = try await Self.makeService(configuration)
        return true
    }

    /// Forgets the operator's last backup (one from before the account was converted to
    /// encryption, which ``SimulatedConversion`` does not restore).
    func forgetBackup() { backup = nil }

    /// Purges every tombstone, as a server does months later, when every session has gone
    /// unused past its life: devices then list everything (see `NoteStore+PurgedTombstones.swift`).
    func purgeTombstones() async throws -> Int {
        try await takeTurn()
        defer { endTurn() }
        return try await service.purgeTombstones(now: Date().addingTimeInterval(400 * 86_400)).tombstones
    }

    func heal() async throws {
        try await takeTurn()
        defer { endTurn() }
        faulty = false
        await deliverDelayed()
    }

    func removeFiles() {
        running.cancel()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Waits for the requests that arrived before this one. A request whose task was
    /// cancelled meanwhile is lost.
    func takeTurn() async throws(SyncError) {
        if busy {
            await withCheckedContinuation { waiting.append($0) }
        } else {
            busy = true
        }
        if Task.isCancelled {
            endTurn()
            throw .unreachable("request abandoned")
        }
    }

    func endTurn() {
        if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
    }

    enum Fault { case none, dropRequest, dropResponse, duplicate, delay }

    func nextFault(allowDelay: Bool) -> Fault {
        guard faulty else { return .none }
        let roll = Int.random(in: 0..<100, using: &random)
        let fault: Fault = switch roll {
        case 0..<8: .dropRequest
        case 8..<16: .dropResponse
        case 16..<21: .duplicate
        case 21..<26 where allowDelay: .delay
        default: .none
        }
        if case .none = fault {} else { faultsInjected += 1 }
        return fault
    }

    /// Delivers requests held back earlier (a late packet finally arriving).
    private func deliverDelayed() async {
        let pending = delayed
        delayed.removeAll()
        for (account, request) in pending {
            _ = try? await service.modify(request, for: account)
        }
    }

    func account(_ token: String) async throws(SyncError) -> StoredAccount {
        do {
            return try await service.authenticate(token: token)
        } catch {
            throw .notLoggedIn
        }
    }

    static func translate(_ error: SyncServerError) -> SyncError {
        switch error.code {
        case .resyncRequired: .resyncRequired
        case .serverRestored: .serverRestored
        case .tombstonesPurged: .tombstonesPurged
        case .unauthorized, .sessionEnded: .notLoggedIn
        default: .server(code: error.code.rawValue, message: error.message)
        }
    }

    func health(token: String) async throws(SyncError) -> HealthResponse {
        try await takeTurn()
        defer { endTurn() }
        if nextFault(allowDelay: false) == .dropRequest { throw .unreachable("request lost") }
        return service.health
    }

    func changes(token: String, query: ChangesQuery) async throws(SyncError) -> ChangesResponse {
        try await takeTurn()
        defer { endTurn() }
        if Bool.random(using: &random), !delayed.isEmpty { await deliverDelayed() }
        let fault = nextFault(allowDelay: false)
        if fault == .dropRequest { throw .unreachable("request lost") }
        let account = try await account(token)
        do {
            let page = try await service.changes(for: account, query, limit: 7, session: token)
            if fault == .dropResponse { throw SyncError.unreachable("answer lost") }
            return page
        } catch let error as SyncServerError {
            throw Self.translate(error)
        } catch {
            throw error as? SyncError ?? .unreachable("\(error)")
        }
    }

    func modify(token: String, request: ModifyRequest) async throws(SyncError) -> ModifyResponse {
        try await takeTurn()
        defer { endTurn() }
        if Bool.random(using: &random), !delayed.isEmpty { await deliverDelayed() }
        let fault = nextFault(allowDelay: true)
        let account = try await account(token)
        switch fault {
        case .dropRequest:
            throw .unreachable("request lost")
        case .delay:
            delayed.append((account, request))
            throw .unreachable("timed out")
        default:
            break
        }
        do {
            var response = try await service.modify(request, for: account)
            if fault == .duplicate { response = try await service.modify(request, for: account) }
            if fault == .dropResponse { throw SyncError.unreachable("answer lost") }
            return response
        } catch let error as SyncServerError {
            throw Self.translate(error)
        } catch {
            throw error as? SyncError ?? .unreachable("\(error)")
        }
    }
}

/// One device's view of the simulated network.
struct SimulatedTransport: SyncTransport {
    let network: SimulatedNetwork
    let token: String

    func health() async throws(SyncError) -> HealthResponse { try await network.health(token: token) }
    func fetchChanges(_ query: ChangesQuery) async throws(SyncError) -> ChangesResponse {
        try await network.changes(token: token, query: query)
    }
    func modify(_ request: ModifyRequest, fieldsJSON: [String?]) async throws(SyncError) -> ModifyResponse {
        try await network.modify(token: token, request: request)
    }
    func assetExists(hash: String) async throws(SyncError) -> Bool { await network.assetExists(hash: hash) }
    func uploadAsset(hash: String, from file: URL) async throws(SyncError) { try await network.uploadAsset(hash: hash, from: file) }
    func downloadAsset(hash: String, to file: URL) async throws(SyncError) { try await network.downloadAsset(hash: hash, to: file) }
    func keptVersions(sealedBelow: Int, after: String?) async throws(SyncError) -> KeptVersionsPage {
        try await network.keptVersions(token: token, sealedBelow: sealedBelow, after: after)
    }
    func resealVersion(_ recordId: UUID, _ resealed: ResealedVersion) async throws(SyncError) {
        try await network.resealVersion(token: token, recordId: recordId, resealed)
    }
    func dropPlaintext() async throws(SyncError) -> PlaintextDropped { try await network.dropPlaintext(token: token) }
    func accountStatus() async throws(SyncError) -> AccountStatus { try await network.accountStatus(token: token) }
}
