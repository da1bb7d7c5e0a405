import Foundation

/// Joplin's RAW items as its exporter writes them into a `.jex` (`BaseItem.serialize`): the
/// title, a blank line, a note's body and another blank line, then every column of the item's
/// table as `name: value` (empty values leave a trailing space), `type_` last, no final newline.
enum JoplinFixture {
    static let created = "2023-03-14T09:26:53.000Z"
    static let updated = "2023-03-15T18:02:11.482Z"

    /// A note; `fields` replace or add columns.
    static func note(_ id: String, title: String, body: String, parent: String, fields: [String: String] = [:]) -> String {
        item(title: title, body: body, [
            ("id", id), ("parent_id", parent), ("created_time", created), ("updated_time", updated), ("is_conflict", "0"),
            ("latitude", "0.00000000"), ("longitude", "0.00000000"), ("altitude", "0.0000"), ("author", ""), ("source_url", ""),
            ("is_todo", "0"), ("todo_due", "0"), ("todo_completed", "0"), ("source", "joplin-desktop"),
            ("source_application", "net.cozic.joplin-desktop"), ("application_data", ""), ("order", "0"),
            ("user_created_time", created), ("user_updated_time", updated), ("encryption_cipher_text", ""),
            ("encryption_applied", "0"), ("markup_language", "1"), ("is_shared", "0"), ("share_id", ""),
            ("conflict_original_id", ""), ("master_key_id", ""), ("user_data", ""), ("deleted_time", "0"), ("type_", "1"),
        ], fields)
    }

    /// A notebook.
    static func folder(_ id: String, title: String, parent: String = "", fields: [String: String] = [:]) -> String {
        item(title: title, body: nil, [
            ("id", id), ("created_time", created), ("updated_time", updated), ("user_created_time", created),
            ("user_updated_time", updated), ("encryption_cipher_text", ""), ("encryption_applied", "0"), ("parent_id", parent),
            ("is_shared", "0"), ("share_id", ""), ("master_key_id", ""), ("icon", ""), ("user_data", ""), ("deleted_time", "0"),
            ("type_", "2"),
        ], fields)
    }

    /// A resource's item (its bytes go in `resources/`).
    static func resource(_ id: String, title: String, mime: String, fileExtension: String, size: Int) -> String {
        item(title: title, body: nil, [
            ("id", id), ("mime", mime), ("filename", ""), ("created_time", created), ("updated_time", updated),
            ("user_created_time", created), ("user_updated_time", updated), ("file_extension", fileExtension),
            ("encryption_cipher_text", ""), ("encryption_applied", "0"), ("encryption_blob_encrypted", "0"), ("size", String(size)),
            ("is_shared", "0"), ("share_id", ""), ("master_key_id", ""), ("user_data", ""), ("blob_updated_time", updated),
            ("ocr_text", ""), ("ocr_details", ""), ("ocr_status", "0"), ("ocr_error", ""), ("type_", "4"),
        ], [:])
    }

    /// A tag.
    static func tag(_ id: String, title: String) -> String {
        item(title: title, body: nil, [
            ("id", id), ("created_time", created), ("updated_time", updated), ("user_created_time", created),
            ("user_updated_time", updated), ("encryption_cipher_text", ""), ("encryption_applied", "0"), ("is_shared", "0"),
            ("parent_id", ""), ("user_data", ""), ("type_", "5"),
        ], [:])
    }

    /// A tag's link to a note: no title, only fields.
    static func noteTag(_ id: String, note: String, tag: String) -> String {
        item(title: nil, body: nil, [
            ("id", id), ("note_id", note), ("tag_id", tag), ("created_time", created), ("updated_time", updated),
            ("user_created_time", created), ("user_updated_time", updated), ("encryption_cipher_text", ""),
            ("encryption_applied", "0"), ("is_shared", "0"), ("type_", "6"),
        ], [:])
    }

    /// An id as Joplin makes them: 32 lowercase hex digits.
    static func id(_ seed: Int) -> String {
        String(format: "%032x", seed * 7_919 + 0x1f2e3d)
    }

    private static func item(title: String?, body: String?, _ columns: [(String, String)], _ fields: [String: String]) -> String {
        var props = columns.map { name, value in "\(name): \(fields[name] ?? value)" }
        let known = Set(columns.map(\.0))
        props.insert(contentsOf: fields.keys.sorted().filter { !known.contains($0) }.map { "\($0): \(fields[$0] ?? "")" }, at: props.count - 1)
        var parts: [String] = []
        if let title { parts.append(title) }
        if let body, !body.isEmpty { parts.append(body) }
        parts.append(props.joined(separator: "\n"))
        return parts.joined(separator: "\n\n")
    }
}
