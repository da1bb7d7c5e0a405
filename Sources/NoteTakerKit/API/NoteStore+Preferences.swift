import Foundation
import GRDB

/// The store's display preferences (``Preferences``), kept in the store file so that every
/// program reading it shows notes the same way. Not synced: each device chooses.
extension NoteStore {
    /// The preferences, their defaults where none was chosen.
    public func preferences() throws(NoteTakerError) -> Preferences {
        try read { db in try Self.preferences(db) }
    }

    /// Keeps `preferences` for every later reader of the store.
    public func setPreferences(_ preferences: Preferences) throws(NoteTakerError) {
        try write { db in
            let text = String(decoding: try JSONEncoder().encode(preferences), as: UTF8.self)
            try db.execute(sql: "INSERT OR REPLACE INTO preference (key, value) VALUES ('display', ?)", arguments: [text])
        }
    }

    static func preferences(_ db: Database) throws -> Preferences {
        let text = try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM preference WHERE key = 'display'"))
        // A value this version cannot read (written by a newer one, or damaged) leaves the defaults.
        return text.flatMap { try? JSONDecoder().decode(Preferences.self, from: Data($0.utf8)) } ?? Preferences()
    }

    /// The table of preferences: one JSON value per key.
    static func createPreferences(_ db: Database) throws {
        try db.execute(sql: "CREATE TABLE preference (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)")
    }
}
