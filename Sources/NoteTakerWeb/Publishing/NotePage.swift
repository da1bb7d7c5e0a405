import Foundation
import NoteTakerKit
import NoteTakerMarkdown
import NoteTakerSync
import NoteTakerSyncProtocol

/// A note rendered as a published page (docs/sharing.md §5.1), and published: its text as the
/// preview shows it, allowlisted, with the pictures it shows from its attachments inlined and
/// every other address that leads into the account dropped.
public enum NotePage {
    /// Publishes note `noteId` from `store` (again, at the same link, when this device
    /// published it before), rendered as its preferences show notes.
    public static func publish(_ noteId: UUID, in store: NoteStore) async throws(SyncError) -> PublishedNote {
        let (note, content): (Note, PublishedPageContent)
        do {
            note = try store.note(id: noteId)
            content = try Self.content(of: note, in: store, preferences: try store.preferences())
        } catch let error as SyncError {
            throw error
        } catch let error as NoteTakerError {
            throw .store(error)
        } catch {
            throw .store(.database("\(error)"))
        }
        return try await store.publishNote(noteId, content: content, noteModifiedAt: note.modifiedAt)
    }

    /// The page of `note`: its title, its body rendered with its pictures inlined. Refuses
    /// (``SyncError/pageTooLarge(bytes:limit:)``) a note whose pictures alone would make the
    /// page too large, before reading them.
    static func content(of note: Note, in store: NoteStore, preferences: Preferences) throws -> PublishedPageContent {
        let shown = try store.attachments(noteId: note.id).filter { attachment in
            AttachmentRoutes.inlineImageTypes[(attachment.fileName as NSString).pathExtension.lowercased()] != nil
                && note.body.range(of: "attachment:" + attachment.id.uuidString, options: .caseInsensitive) != nil
        }
        // Base64 takes four bytes for three.
        let inlined = shown.reduce(Int64(0)) { $0 + ($1.fileSize + 2) / 3 * 4 }
        if inlined > Int64(SyncLimits.maxPublishedBytes) {
            throw SyncError.pageTooLarge(bytes: inlined, limit: Int64(SyncLimits.maxPublishedBytes))
        }
        var pictures: [UUID: String] = [:]
        for attachment in shown {
            let type = AttachmentRoutes.inlineImageTypes[(attachment.fileName as NSString).pathExtension.lowercased()] ?? "application/octet-stream"
            guard let data = try? Data(contentsOf: store.fileURL(for: attachment)) else { continue }
            pictures[attachment.id] = "data:\(type);base64," + data.base64EncodedString()
        }
        let document = MarkdownDocument(parsing: note.body, syntax: preferences.lineBreaks ? [.notes, .lineBreaks] : .notes)
        let html = HTMLSanitizer.sanitize(document.html(options: MarkdownHTMLOptions(tickableTasks: false, highlightsCode: true)),
                                          addressing: .published(pictures: pictures))
        return PublishedPageContent(title: note.title, html: html, published: store.sources.now)
    }
}
