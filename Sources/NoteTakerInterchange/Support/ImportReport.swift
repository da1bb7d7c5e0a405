import Foundation
import NoteTakerKit

/// What an import found and did: counts, and every note skipped or changed with the reason.
///
/// Encoded with its reasons in English, or in the ``Language`` an encoder's `userInfo` gives
/// under ``Language/codingKey``.
public struct ImportReport: Sendable, Hashable, Encodable {
    /// The kinds of input ``Importer`` reads.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A NoteTaker JSON export.
        case notetakerJSON = "notetaker-json"
        /// A folder of Markdown files (Obsidian, Joplin, NoteTaker) or one `.md` file.
        case markdown
        /// An Evernote `.enex` file.
        case evernote
        /// A Google Keep export from Google Takeout (`.zip`).
        case googleKeep = "google-keep"
        /// A Simplenote export (`.zip`, or its `notes.json`).
        case simplenote
        /// A Standard Notes backup (`.zip`, or its `.txt`), decrypted.
        case standardNotes = "standard-notes"
        /// TextBundles: a `.textbundle` folder, a `.textpack`, Bear's `.bear2bk` backup.
        case textBundle = "textbundle"
        /// Notion's Markdown & CSV export (`.zip`).
        case notion
        /// A Joplin export (`.jex`, a tar of Joplin's RAW items).
        case joplin
    }

    /// One note (or file) that was not imported, or imported with a caveat.
    public struct Entry: Sendable, Hashable, Encodable {
        /// Where it came from: a file path, or a note's title and position.
        public var item: String
        /// Why, to be worded in the reader's language.
        public var wording: Wording

        /// Why, in English.
        public var reason: String { Catalog.errors.text(wording, in: .english) }

        /// An entry for `item`, for the reason `wording` gives.
        public init(item: String, wording: Wording) {
            self.item = item
            self.wording = wording
        }

        /// Encodes `item` and `reason`, worded in the encoder's language.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(item, forKey: .item)
            try container.encode(Catalog.errors.text(wording, in: Language.of(encoder)), forKey: .reason)
        }

        private enum CodingKeys: String, CodingKey { case item, reason }
    }

    /// A file from the importing person's disk that an imported note attached.
    public struct AttachedFile: Sendable, Hashable, Encodable {
        /// The note's file, as the import names it.
        public var note: String
        /// The attached file, relative to the imported folder.
        public var file: String
    }

    /// What was read.
    public var kind: Kind
    /// Notes found in the input.
    public var found = 0
    /// Notes added to the store.
    public var imported = 0
    /// Notes already in the store from an earlier import of the same input; left as they are.
    public var alreadyPresent = 0
    /// Notes already in the store that changed in the source since they were imported, each
    /// named: the changes were made to them, merged with those made here.
    public var updated: [String] = []
    /// Notes not imported, each with its reason (nothing of them was written).
    public var skipped: [Entry] = []
    /// Notes imported with something left as it was (a link to a missing file, ...).
    public var warnings: [Entry] = []
    /// A problem that ended reading the input early (the notes before it were imported).
    public var stop: Wording?
    /// The same, in English.
    public var stoppedEarly: String? { stop.map { Catalog.errors.text($0, in: .english) } }
    /// Links from one imported note to another, kept as links by id (`note:ID`).
    public var linksKept = 0
    /// Links to notes neither the import nor the store holds, left as written (each also in `warnings`).
    public var linksUnresolved = 0
    /// Files of the imported folder attached to imported notes, each named, so that nothing
    /// leaves the disk for the store (and the sync server) unseen.
    public var attachedFiles: [AttachedFile] = []

    /// Creates an empty report.
    public init(kind: Kind) {
        self.kind = kind
    }

    /// Encodes the counts and entries, `stoppedEarly` worded in the encoder's language.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(found, forKey: .found)
        try container.encode(imported, forKey: .imported)
        try container.encode(alreadyPresent, forKey: .alreadyPresent)
        try container.encode(updated, forKey: .updated)
        try container.encode(skipped, forKey: .skipped)
        try container.encode(warnings, forKey: .warnings)
        try container.encode(stop.map { Catalog.errors.text($0, in: Language.of(encoder)) }, forKey: .stoppedEarly)
        try container.encode(linksKept, forKey: .linksKept)
        try container.encode(linksUnresolved, forKey: .linksUnresolved)
        try container.encode(attachedFiles, forKey: .attachedFiles)
    }

    private enum CodingKeys: String, CodingKey {
        case kind, found, imported, alreadyPresent, updated, skipped, warnings, stoppedEarly, linksKept, linksUnresolved, attachedFiles
    }
}

/// How far an import or export has got, for a progress bar.
public struct InterchangeProgress: Sendable, Hashable {
    /// Units done (notes, or bytes of input when ``total`` counts bytes).
    public var done: Int64
    /// Units in all, when known.
    public var total: Int64?
    /// Notes handled so far.
    public var notes: Int
    /// Whether the notes are in and the search index is being built (``done`` and ``total``
    /// then count notes indexed).
    public var indexing = false

    /// The fraction done, when the total is known.
    public var fraction: Double? {
        guard let total, total > 0 else { return nil }
        return min(1, Double(done) / Double(total))
    }
}

/// Receives progress; called on the importing or exporting thread.
public typealias InterchangeProgressHandler = @Sendable (InterchangeProgress) -> Void
