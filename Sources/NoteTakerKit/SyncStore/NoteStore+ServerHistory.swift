import Foundation
import GRDB
import NoteTakerSyncProtocol

/// A note's history on the server, brought into this device's, so a device set up later (or
/// again) sees the versions other devices made before it joined.
extension NoteStore {
    /// Adds the server's versions of a note that are neither the note's text now nor in its
    /// history (same title, body and date), then stores the history again in time order.
    package func mergeServerVersions(noteId: UUID, _ versions: [RecordVersion]) throws(NoteTakerError) -> Int {
        try write { db in
            let current = try Self.fetchNote(db, id: noteId.key)
            let local = try NoteHistory.versions(db, noteId: noteId, bodies: .all)
            func same(_ title: String, _ body: String, _ date: Date, as other: (String, String?, Date)) -> Bool {
                other.0 == title && other.1 == body && abs(other.2.timeIntervalSince(date)) < 0.002
            }
            var added: [NoteVersion] = []
            for version in versions {
                guard let title = version.fields[NoteRecord.Field.title.rawValue]?.string,
                      let body = version.fields[NoteRecord.Field.body.rawValue]?.string,
                      let seconds = version.fields[NoteRecord.Field.modifiedAt.rawValue]?.number, Timestamp.representable.contains(seconds),
                      Timestamp.representable.contains(version.replacedAt) else { continue }
                let date = Date(timeIntervalSince1970: seconds)
                if current.title == title && current.body == body { continue }
                if local.contains(where: { same(title, body, date, as: ($0.title, $0.body, $0.modifiedAt)) })
                    || added.contains(where: { same(title, body, date, as: ($0.title, $0.body, $0.modifiedAt)) }) { continue }
                added.append(NoteVersion(
                    id: 0, noteId: noteId, modifiedAt: date, replacedAt: Date(timeIntervalSince1970: version.replacedAt),
                    replacedBy: .sync, title: title, bodySize: body.utf8.count,
                    device: SyncDevice.validName(version.fields[NoteRecord.Field.editedOn.rawValue]?.string),
                    author: version.fields[RecordFields.writerKey]?.string, body: body))
            }
            guard !added.isEmpty else { return 0 }
            // Among equal times the new ones (id 0, numbered next) count as the newest.
            let merged = (local + added).sorted { ($0.replacedAt, $0.id == 0 ? .max : $0.id) > ($1.replacedAt, $1.id == 0 ? .max : $1.id) }
            try NoteHistory.rewrite(db, noteId: noteId, kept: merged)
            return added.count
        }
    }
}
