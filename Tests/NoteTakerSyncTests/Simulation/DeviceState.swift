import Foundation
import GRDB
@testable import NoteTakerKit

/// A record the oracle follows: its type and id.
struct RecordKey: Hashable, Comparable, CustomStringConvertible {
    var type: String
    var id: String

    static func < (a: RecordKey, b: RecordKey) -> Bool { (a.type, a.id) < (b.type, b.id) }
    var description: String { "\(type) \(id.prefix(8))" }
}

/// What a device shows of every record, as the oracle compares it: property → value text.
///
/// A note has `title`, `body`, `pinned`, `trashed`, `folder` (a folder id or `-`), and one
/// `tag:ID` / `file:ID` property per tag or attachment it has (`1`; absent means `0`). A
/// folder has `name` and `parent`; a tag has `name`. Reading it writes nothing.
struct DeviceState: Equatable {
    var records: [RecordKey: [String: String]]

    static let absent = "0"

    static func read(_ store: NoteStore) throws -> DeviceState {
        try store.writer.read { db in
            var records: [RecordKey: [String: String]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, title, body, isPinned, trashedAt IS NOT NULL, folderId FROM note") {
                records[RecordKey(type: "note", id: row[0])] = [
                    "title": row[1], "body": row[2], "pinned": flag(row[3]), "trashed": flag(row[4]), "folder": row[5] ?? "-",
                ]
            }
            // A tag is followed by its name's plain id: a store that adopts the keyed ids of an
            // account converted to encryption renames its tags (docs/encryption.md §4), and to
            // the oracle each is still the tag it was. (In other runs the two ids are one.)
            var tags: [String: (key: String, name: String)] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, name FROM tag") {
                let name: String = row["name"]
                tags[row["id"]] = (Tag.id(forName: name).key, name)
            }
            for row in try Row.fetchAll(db, sql: "SELECT noteId, tagId FROM noteTag") {
                let tagId: String = row["tagId"]
                records[RecordKey(type: "note", id: row["noteId"])]?["tag:" + (tags[tagId]?.key ?? tagId)] = "1"
            }
            for row in try Row.fetchAll(db, sql: "SELECT noteId, 'file:' || id FROM attachment") {
                records[RecordKey(type: "note", id: row[0])]?[row[1]] = "1"
            }
            for row in try Row.fetchAll(db, sql: "SELECT id, name, parentId FROM folder") {
                records[RecordKey(type: "folder", id: row[0])] = ["name": row[1], "parent": row[2] ?? "-"]
            }
            for tag in tags.values {
                records[RecordKey(type: "tag", id: tag.key)] = ["name": tag.name]
            }
            return DeviceState(records: records)
        }
    }

    private static func flag(_ value: Bool) -> String { value ? "1" : "0" }

    func exists(_ key: RecordKey) -> Bool { records[key] != nil }

    /// A property's value; set members that are not there read as ``absent``.
    func value(_ key: RecordKey, _ property: String) -> String? {
        guard let record = records[key] else { return nil }
        return record[property] ?? (Self.isMember(property) ? Self.absent : nil)
    }

    static func isMember(_ property: String) -> Bool { property.hasPrefix("tag:") || property.hasPrefix("file:") }

    /// What an operation changed, from the state before it to the state after it:
    /// `exists` = `1` for a record created, `0` for one deleted, and each changed property.
    func changes(to after: DeviceState) -> [(RecordKey, String, String)] {
        var changes: [(RecordKey, String, String)] = []
        for key in Set(records.keys).union(after.records.keys).sorted() {
            switch (records[key], after.records[key]) {
            case (nil, let created?):
                changes.append((key, "exists", "1"))
                changes += created.sorted { $0.key < $1.key }.map { (key, $0.key, $0.value) }
            case (_?, nil):
                changes.append((key, "exists", "0"))
            case (let old?, let new?):
                for property in Set(old.keys).union(new.keys).sorted() {
                    let value = new[property] ?? Self.absent
                    if (old[property] ?? Self.absent) != value { changes.append((key, property, value)) }
                }
            case (nil, nil):
                break
            }
        }
        return changes
    }
}
