import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol

/// How the sync engine talks to a sync server. The real one is `HTTPSyncTransport` (in `NoteTakerSync`);
/// tests put faults in between.
public protocol SyncTransport: Sendable {
    /// The server's health answer: its database id (a different one means a different or
    /// reset server) and the most changes it takes in one batch.
    func health() async throws(SyncError) -> HealthResponse
    /// A page of changes since the query's token (`nil` for everything), without the
    /// device's own changes it holds.
    func fetchChanges(_ query: ChangesQuery) async throws(SyncError) -> ChangesResponse
    /// Sends a batch of saves and deletes. `fieldsJSON` holds each change's fields already
    /// written as JSON (``RecordFields/wireJSON``), when the caller has them, so that a batch
    /// is not encoded twice; empty when it does not.
    func modify(_ request: ModifyRequest, fieldsJSON: [String?]) async throws(SyncError) -> ModifyResponse
    /// Whether the server holds the attachment file with this SHA-256.
    func assetExists(hash: String) async throws(SyncError) -> Bool
    /// Uploads an attachment file under its SHA-256.
    func uploadAsset(hash: String, from file: URL) async throws(SyncError)
    /// Downloads an attachment file to `file`.
    func downloadAsset(hash: String, to file: URL) async throws(SyncError)
    /// Downloads a sealed attachment file (docs/encryption.md §5), kept under a keyed
    /// `address`, to `file`, without checking a SHA-256: the address is none, and opening the
    /// file authenticates it.
    func downloadSealedAsset(address: String, to file: URL) async throws(SyncError)
    /// The earlier versions of a note that the server kept, newest first.
    func recordVersions(_ recordId: UUID) async throws(SyncError) -> [RecordVersion]
    /// The earlier versions of many notes at once (at most ``VersionsQuery/maximumCount``):
    /// those the server holds, and the notes it left for another request.
    func notesVersions(_ recordIds: [UUID]) async throws(SyncError) -> VersionsOfNotes
    /// One stretch of the account's kept versions not sealed with data key `sealedBelow` or a
    /// newer one, from `after` (a page's `next`; the first stretch when `nil`).
    func keptVersions(sealedBelow: Int, after: String?) async throws(SyncError) -> KeptVersionsPage
    /// Replaces a kept version of note `recordId` with the same version sealed with a newer key.
    func resealVersion(_ recordId: UUID, _ resealed: ResealedVersion) async throws(SyncError)
    /// Gives the server earlier versions of note `recordId`, which moved here from another
    /// zone, to keep with its own; returns how many it kept.
    func addVersions(_ recordId: UUID, _ moved: MovedVersions) async throws(SyncError) -> Int
    /// One stretch of the addresses of the account's files not sealed with data key
    /// `sealedBelow` or a newer one, from `after` (a page's `next`; the first when `nil`).
    func keptFiles(sealedBelow: Int, after: String?) async throws(SyncError) -> KeptFilesPage
    /// Replaces the sealed file at `address` with `file`, the same file sealed with a newer key.
    func uploadResealedAsset(address: String, from file: URL) async throws(SyncError)
    /// Asks the server to delete what the account, converted to end-to-end encryption, still
    /// holds in plain text: ``APIErrorCode/unsealedRecords`` while a record is not sealed.
    func dropPlaintext() async throws(SyncError) -> PlaintextDropped
    /// The account's status: its usage, and, for an end-to-end encrypted account, how many of
    /// its records are not sealed yet (tags under unkeyed ids counted).
    func accountStatus() async throws(SyncError) -> AccountStatus
}

extension SyncTransport {
    /// Sends a batch of saves and deletes, encoding its fields.
    public func modify(_ request: ModifyRequest) async throws(SyncError) -> ModifyResponse {
        try await modify(request, fieldsJSON: [])
    }

    /// A transport that checks no file's SHA-256 (test doubles) downloads a sealed file as any.
    public func downloadSealedAsset(address: String, to file: URL) async throws(SyncError) {
        try await downloadAsset(hash: address, to: file)
    }

    /// A transport without a history to offer (test doubles) answers no versions.
    public func recordVersions(_ recordId: UUID) async throws(SyncError) -> [RecordVersion] { [] }

    /// A note at a time (test doubles), a note the server does not hold left out.
    public func notesVersions(_ recordIds: [UUID]) async throws(SyncError) -> VersionsOfNotes {
        try await notesVersionsOneAtATime(recordIds)
    }

    /// The versions of `recordIds` asked for a note at a time (``recordVersions(_:)``), a note
    /// the server does not hold left out: what ``notesVersions(_:)`` does without the route.
    public func notesVersionsOneAtATime(_ recordIds: [UUID]) async throws(SyncError) -> VersionsOfNotes {
        var notes: [VersionsOfNotes.Note] = []
        for recordId in recordIds {
            do {
                notes.append(VersionsOfNotes.Note(recordId: recordId, versions: try await recordVersions(recordId)))
            } catch .server(code: APIErrorCode.notFound.rawValue, _) {
                continue
            }
        }
        return VersionsOfNotes(notes: notes, unread: [])
    }

    /// A transport without kept versions (test doubles) lists none.
    public func keptVersions(sealedBelow: Int, after: String?) async throws(SyncError) -> KeptVersionsPage {
        KeptVersionsPage(versions: [], next: nil)
    }

    /// A transport without kept versions (test doubles) holds none to replace.
    public func resealVersion(_ recordId: UUID, _ resealed: ResealedVersion) async throws(SyncError) {
        throw .server(code: APIErrorCode.notFound.rawValue, message: "No kept versions here.")
    }

    /// A transport without a history to offer (test doubles) keeps no versions given.
    public func addVersions(_ recordId: UUID, _ moved: MovedVersions) async throws(SyncError) -> Int { 0 }

    /// A transport without sealed files (test doubles) lists none.
    public func keptFiles(sealedBelow: Int, after: String?) async throws(SyncError) -> KeptFilesPage {
        KeptFilesPage(addresses: [], next: nil)
    }

    /// A transport without sealed files (test doubles) holds none to replace.
    public func uploadResealedAsset(address: String, from file: URL) async throws(SyncError) {
        throw .server(code: APIErrorCode.notFound.rawValue, message: "No sealed files here.")
    }

    /// A transport without plaintext to drop (test doubles) drops nothing.
    public func dropPlaintext() async throws(SyncError) -> PlaintextDropped {
        PlaintextDropped(versions: 0, files: 0, tombstones: 0)
    }

    /// A transport without accounts (test doubles) answers an empty one's status.
    public func accountStatus() async throws(SyncError) -> AccountStatus {
        AccountStatus(username: "", recordCount: 0, usedBytes: 0, quotaBytes: 0)
    }
}
