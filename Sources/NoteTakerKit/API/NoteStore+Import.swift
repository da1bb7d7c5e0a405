import Foundation
import GRDB

/// What a bulk import did: the notes it added, and the ones it skipped with the reason.
public struct ImportOutcome: Sendable {
    /// A draft that was not imported, by its position in the input, with the reason.
    public struct Skipped: Sendable {
        /// The draft's position in the batch given to ``NoteStore/importNotes(_:)-(NoteDraft)``.
        public var index: Int
        /// Why it was skipped.
        public var error: NoteTakerError
    }

    /// The ids of the notes added, in input order.
    public var imported: [UUID] = []
    /// The drafts that were skipped.
    public var skipped: [Skipped] = []
}

extension NoteStore {
    /// Adds many notes in one transaction: the fast path for imports. Each note is indexed
    /// for search as it goes in (or, with ``SearchIndexing/deferred``, when the whole import
    /// is in).
    ///
    /// A draft that cannot be added (a bad title, an unknown folder, an id already taken) is
    /// skipped and reported; it never leaves half a note behind, and the others go in.
    /// Callers feed large imports in batches of a few thousand drafts.
    public func importNotes(
        _ drafts: [NoteDraft], indexing: SearchIndexing = .immediately
    ) throws(NoteTakerError) -> ImportOutcome {
        var drafts = drafts
        var ids = NoteIDSequence(sources: sources)
        for index in drafts.indices where drafts[index].id == nil { drafts[index].id = ids.next() }
        let outcomes = try importNotes(drafts.map { NoteImport(draft: $0) }, indexing: indexing)
        var result = ImportOutcome()
        for (index, outcome) in outcomes.enumerated() {
            switch outcome {
            case .imported, .updated:
                result.imported.append(drafts[index].id ?? UUID())
            case .alreadyPresent:
                let id = drafts[index].id?.key ?? ""
                result.skipped.append(.init(index: index, error: .invalidInput(Wording("noteIdTaken", ["id": id]))))
            case .failed(let error):
                result.skipped.append(.init(index: index, error: error))
            }
        }
        return result
    }

    /// Adds many notes with their attachments in one transaction, each note whole or not at
    /// all, and returns what happened to each, in input order.
    ///
    /// The files are copied into the store first (streaming, deduplicated by content); a note
    /// whose file cannot be read, or whose id is already taken by an attachment, is refused
    /// and leaves nothing behind. A note whose id is already in the store is left as it is
    /// (``NoteImport/Outcome/alreadyPresent``), so importing the same thing twice adds it once;
    /// unless it follows its source (``NoteImport/followsSource``) and changed there since it
    /// was imported: then it is updated through the one edit path, merged with what changed
    /// here (``NoteImport/Outcome/updated``).
    public func importNotes(
        _ items: [NoteImport], indexing: SearchIndexing = .immediately
    ) throws(NoteTakerError) -> [NoteImport.Outcome] {
        var items = items
        var ids = NoteIDSequence(sources: sources)
        for index in items.indices where items[index].draft.id == nil { items[index].draft.id = ids.next() }
        var outcomes = [NoteImport.Outcome](repeating: .imported, count: items.count)
        var stored: [[AttachmentFiles.Stored]] = Array(repeating: [], count: items.count)
        var copiedHashes = Set<String>()
        for (index, item) in items.enumerated() {
            do throws(NoteTakerError) {
                for file in item.files {
                    let copy = try attachmentFiles.store(from: file.source, fileName: Attachment.safeFileName(file.fileName))
                    copiedHashes.insert(copy.contentHash)
                    stored[index].append(copy)
                    if let expected = file.expectedSHA256, expected != copy.contentHash {
                        throw NoteTakerError.invalidInput(Wording("attachmentDamaged", ["name": file.fileName]))
                    }
                }
            } catch {
                outcomes[index] = .failed(error)
            }
        }
        do {
            try write { db in
                let before = try SearchIndexSchema.lastSearchSeq(db)
                var cache = RecordWriter.InsertCache()
                var count = 0
                for (index, item) in items.enumerated() where outcomes[index] == .imported {
                    do {
                        if try Self.noteExists(db, item.draft.id?.key ?? "") {
                            outcomes[index] = try Self.importAgain(db, item, stored: stored[index], sources: sources)
                            continue
                        }
                        let base = item.followsSource ? try ImportBases.Base(item.draft) : nil
                        if item.files.isEmpty {
                            // `insertNote` refuses a draft before its first write, so a note
                            // alone needs no savepoint (one per note took a fifth of the time).
                            let id = try RecordWriter.insertNote(db, item.draft, cache: &cache, checked: true, sources: sources)
                            if let base { try ImportBases.save(db, noteId: id, base, noteIsSource: true) }
                        } else {
                            try db.inSavepoint {
                                let id = try RecordWriter.insertNote(db, item.draft, cache: &cache, checked: true, sources: sources)
                                try Self.insertAttachments(db, of: item, stored: stored[index], sources: sources)
                                if let base { try ImportBases.save(db, noteId: id, base, noteIsSource: true) }
                                return .commit
                            }
                        }
                        count += 1
                    } catch let error as NoteTakerError {
                        outcomes[index] = .failed(error)
                    } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY {
                        outcomes[index] = .failed(.invalidInput(Wording("attachmentIdTaken", ["reason": error.message ?? ""])))
                    }
                }
                switch indexing {
                case .immediately: try SearchIndexSchema.indexNotes(db, searchSeqAbove: before)
                case .deferred: try PendingSearchIndex.postpone(db, notesWhere: "searchSeq > ?", arguments: [before])
                }
                try Metrics.increment(db, .notesCreated, by: count)
            }
        } catch {
            try removeUnreferencedFiles(copiedHashes)
            throw error
        }
        let failedHashes = Set(stored.indices.filter { ![.imported, .updated].contains(outcomes[$0]) }.flatMap { stored[$0].map(\.contentHash) })
        try removeUnreferencedFiles(failedHashes)
        return outcomes
    }
}
