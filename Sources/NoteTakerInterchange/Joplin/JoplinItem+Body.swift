import Foundation
import NoteTakerKit
import NoteTakerMarkdown

extension JoplinItem {
    /// The fields a note's import reads into NoteTaker's own (title, dates, notebook, trash,
    /// to-do) or that are Joplin's bookkeeping (sync, encryption, sharing, sort order, which
    /// app wrote it); every other field with a value goes into the properties block.
    private static let noteFieldsRead: Set<String> = [
        "id", "parent_id", "type_", "created_time", "updated_time", "user_created_time", "user_updated_time", "deleted_time",
        "is_conflict", "conflict_original_id", "is_todo", "todo_due", "todo_completed", "markup_language", "latitude",
        "longitude", "altitude", "encryption_cipher_text", "encryption_applied", "is_shared", "share_id", "master_key_id",
        "order", "source", "source_application",
    ]

    /// A note's body as NoteTaker keeps it: the properties block (a to-do's state and due
    /// date, its place, author, source address and any field NoteTaker has no place for), a
    /// to-do's task (ticked when done), then `text` (the note's text, its links rewritten).
    func noteBody(text: String) -> String {
        var properties: [String] = []
        var parts: [String] = []
        if flag("is_todo") {
            let completed = date("todo_completed")
            properties.append("todo: \(completed == nil ? "open" : "done")")
            if let completed { properties.append("completed: \(FrontMatter.quoted(Timestamp.string(completed)))") }
            if let due = date("todo_due") { properties.append("due: \(FrontMatter.quoted(Timestamp.string(due)))") }
            parts.append("- [\(completed == nil ? " " : "x")] \(title)")
        }
        let place = ["latitude", "longitude", "altitude"].map { fields[$0] ?? "" }
        if place.contains(where: { !$0.isEmpty && Double($0) != 0 }) {
            properties.append("location: \(FrontMatter.quoted(place.filter { !$0.isEmpty }.joined(separator: ", ")))")
        }
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) where !Self.noteFieldsRead.contains(name) && !value.isEmpty && value != "0" {
            properties.append("\(name): \(FrontMatter.quoted(value))")
        }
        if !properties.isEmpty { parts.insert(NoteProperties.block(properties), at: 0) }
        if !text.isEmpty { parts.append(text) }
        return parts.joined(separator: "\n\n")
    }
}
