import Foundation
import GRDB
import NoteTakerSyncProtocol

/// How far this device's copy of the server's history goes, by change tag (the number the
/// server saved a version under, counting up per account).
///
/// Two marks are kept: the highest change tag any answer or fetched page brought here, and
/// that mark as it stood when this device last kept a fetched page's token. The server holds
/// everything up to the token, so every version synced here up to the second mark is on a
/// server that still knows the token. A version this device synced above it came from its
/// own batches, answered after its last fetch: a server restored from a backup made before
/// that answer lost it. The catch-up before a restored server's heal leaves such records to
/// the heal (`NoteStore+RestoredServer.swift`).
enum SyncedThrough {
    /// Notes the change tags an answer to a batch brought: those it saved and those it refused with.
    static func noteAnswer(_ db: Database, _ response: ModifyResponse) throws {
        let tags = response.results.compactMap { $0.serverRecord?.changeTag ?? $0.changeTag }
        try raise(db, to: highest(tags))
    }

    /// Notes the change tags a fetched page brought, as its token is kept: the server holds
    /// everything synced here so far.
    static func noteFetched(_ db: Database, _ page: ChangesResponse) throws {
        try raise(db, to: highest(page.records.map(\.changeTag)))
        try SyncState.set(db, .fetchedThrough, try SyncState.get(db, .syncedThrough))
    }

    /// The highest change tag this device held when it last kept a fetched page's token; 0
    /// when it kept none since it began with this server (or knew nothing of these marks).
    static func fetched(_ db: Database) throws -> Int64 {
        try SyncState.get(db, .fetchedThrough).flatMap { Int64($0) } ?? 0
    }

    /// Starts the first mark at the highest change tag a row holds, for a store that synced
    /// before the marks were kept: its next fetch then covers every version held here.
    static func startFromRows(_ db: Database) throws {
        try raise(db, to: try RecordType.allCases.compactMap { type in
            try Int64.fetchOne(db, sql: "SELECT MAX(CAST(changeTag AS INTEGER)) FROM \(type.table)")
        }.max())
    }

    /// The keys to forget when this device starts over with a server: the numbers of another
    /// server, or of one restored from an older copy, say nothing of the new one's.
    static let keys: [SyncState.Key] = [.syncedThrough, .fetchedThrough]

    private static func highest(_ tags: [String]) -> Int64? {
        tags.compactMap { Int64($0) }.max()
    }

    private static func raise(_ db: Database, to tag: Int64?) throws {
        guard let tag else { return }
        let current = try SyncState.get(db, .syncedThrough).flatMap { Int64($0) } ?? 0
        if tag > current { try SyncState.set(db, .syncedThrough, String(tag)) }
    }
}
