import Foundation
import GRDB

/// A note's history: its earlier versions, restoring one, and thinning them as they age.
extension NoteStore {
    /// Every earlier version of a note, newest first, each with a summary of what the next
    /// newer text changed; with its text too when `withBodies` is set (which holds every
    /// version's text in memory at once). The note as it is now is not among them.
    public func history(noteId: UUID, withBodies: Bool = false) throws(NoteTakerError) -> [NoteVersion] {
        try read { db in
            _ = try Self.fetchNote(db, id: noteId.key)
            return try NoteHistory.versions(db, noteId: noteId, bodies: withBodies ? .all : .none, summaries: true)
        }
    }

    /// In a shared folder, the account that wrote note `noteId`'s text as it is now, when
    /// another (as the signature this device checked attests: docs/sharing.md §4); `nil` for
    /// this account's own, and outside shares.
    public func lastAuthor(of noteId: UUID) throws(NoteTakerError) -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT editedBy FROM note WHERE id = ?", arguments: [noteId.key]) }
    }

    /// One earlier version of a note, with its text.
    ///
    /// - Throws: ``NoteTakerError/versionNotFound(note:version:)`` when the note has no such
    ///   version (a version of another note included).
    public func version(_ version: Int64, of noteId: UUID) throws(NoteTakerError) -> NoteVersion {
        try read { db in
            _ = try Self.fetchNote(db, id: noteId.key)
            return try NoteHistory.version(db, noteId: noteId, id: version)
        }
    }

    /// Makes an earlier version's title and body the note's again. An ordinary edit: it
    /// syncs, and the text it replaces becomes a version itself.
    public func restoreVersion(_ version: Int64, of noteId: UUID) throws(NoteTakerError) -> Note {
        try write { db in
            let current = try Self.fetchEditableNote(db, id: noteId.key)
            let chosen = try NoteHistory.version(db, noteId: noteId, id: version)
            return try RecordWriter.changeText(db, of: current, title: chosen.title, body: chosen.body, replacedBy: .restore, at: sources.now) ?? current
        }
    }

    /// How long versions are kept.
    public func historyRetention() throws(NoteTakerError) -> HistoryRetention {
        try read { db in
            let text = try String.fetchOne(db, sql: "SELECT value FROM history_setting WHERE key = 'retention'")
            return text.flatMap { try? JSONDecoder().decode(HistoryRetention.self, from: Data($0.utf8)) } ?? .standard
        }
    }

    /// Changes how long versions are kept (applied by the next ``pruneHistory(now:)``).
    public func setHistoryRetention(_ retention: HistoryRetention) throws(NoteTakerError) {
        guard retention.coalescingMinutes >= 0, retention.everyVersionDays >= 0, retention.dailyDays >= retention.everyVersionDays,
              (retention.weeklyDays ?? .max) >= retention.dailyDays else {
            throw NoteTakerError.invalidInput(Wording("historyRetentionInvalid"))
        }
        try write { db in
            let text = String(decoding: try JSONEncoder().encode(retention), as: UTF8.self)
            try db.execute(sql: "INSERT OR REPLACE INTO history_setting (key, value) VALUES ('retention', ?)", arguments: [text])
        }
    }

    /// Thins every note's history by the retention: every version while it is young, then the
    /// newest of each day, then of each week. Returns how many versions were removed.
    @discardableResult
    public func pruneHistory(now date: Date? = nil) throws(NoteTakerError) -> Int {
        let now = date ?? sources.now
        let retention = try historyRetention()
        let cutoff = now.addingTimeInterval(-Double(retention.everyVersionDays) * 86_400).storageValue
        let notes = try read { db in
            try String.fetchAll(db, sql: "SELECT DISTINCT noteId FROM note_version WHERE replacedAt < ?", arguments: [cutoff])
        }
        var removed = 0
        for key in notes {
            guard let noteId = UUID(key: key) else { continue }
            removed += try write { db in
                let versions = try NoteHistory.versions(db, noteId: noteId, bodies: .all)
                let kept = HistoryThinning.kept(versions, now: now, retention: retention)
                guard kept.count < versions.count else { return 0 }
                try NoteHistory.rewrite(db, noteId: noteId, kept: kept)
                return versions.count - kept.count
            }
        }
        return removed
    }

    /// Thins the history when it was last thinned over a day ago (a lookup of one row
    /// otherwise, so a program's start stays quick).
    func pruneHistoryIfDue(now date: Date? = nil) throws(NoteTakerError) {
        let now = date ?? sources.now
        let last = try read { db in
            try Double.fetchOne(db, sql: "SELECT CAST(value AS REAL) FROM history_setting WHERE key = 'lastPruned'")
        }
        guard now.timeIntervalSince1970 - (last ?? 0) > 86_400 else { return }
        try pruneHistory(now: now)
        try write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO history_setting (key, value) VALUES ('lastPruned', ?)",
                           arguments: [String(now.timeIntervalSince1970)])
        }
    }

    /// The bytes the history takes in the store (titles and stored bodies).
    public func historyBytes() throws(NoteTakerError) -> Int64 {
        try read { db in
            try Int64.fetchOne(db, sql: "SELECT IFNULL(SUM(length(body) + length(CAST(title AS BLOB)) + 40), 0) FROM note_version") ?? 0
        }
    }
}
