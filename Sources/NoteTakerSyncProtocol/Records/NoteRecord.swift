import Foundation

/// A note as a sync record: its fields, named and typed once for client and server.
public struct NoteRecord: Sendable, Equatable {
    /// The names of a note record's fields.
    public enum Field: String, CaseIterable, Sendable {
        case title, body, createdAt, modifiedAt, isPinned, folderId, trashedAt, tagIds, editedOn
    }

    /// The title.
    public var title: String
    /// The Markdown body.
    public var body: String
    /// When it was created, in seconds since 1970.
    public var createdAt: Double
    /// When it was last modified, in seconds since 1970.
    public var modifiedAt: Double
    /// Whether it is pinned.
    public var isPinned: Bool
    /// Its folder's id, if it is in one.
    public var folderId: String?
    /// When it went to the trash, if it is there.
    public var trashedAt: Double?
    /// Its tags' ids.
    public var tagIds: [String]
    /// The name of the device that last edited it; only to show, so a malformed one reads as none.
    public var editedOn: String?
    /// The account that wrote it in a shared zone, as the signature the opening device checked
    /// attests (``RecordFields/writerKey``, docs/sharing.md §4); `nil` for this device's own
    /// account, and in the private zone. Never sent: ``fields`` leaves it out.
    public var editedBy: String?

    /// A note record from its values.
    public init(
        title: String, body: String, createdAt: Double, modifiedAt: Double, isPinned: Bool, folderId: String?,
        trashedAt: Double?, tagIds: [String], editedOn: String?, editedBy: String? = nil
    ) {
        self.title = title
        self.body = body
        self.createdAt = createdAt
        self.modifiedAt = modifiedAt
        self.isPinned = isPinned
        self.folderId = folderId
        self.trashedAt = trashedAt
        self.tagIds = tagIds
        self.editedOn = editedOn
        self.editedBy = editedBy
    }

    /// Reads a note record's fields.
    public init(fields: RecordFields) throws(RecordFieldError) {
        let reader = RecordFieldReader(fields)
        self.init(
            title: try reader.string(Field.title.rawValue), body: try reader.string(Field.body.rawValue),
            createdAt: try reader.date(Field.createdAt.rawValue), modifiedAt: try reader.date(Field.modifiedAt.rawValue),
            isPinned: try reader.bool(Field.isPinned.rawValue), folderId: try reader.optionalId(Field.folderId.rawValue),
            trashedAt: try reader.optionalDate(Field.trashedAt.rawValue), tagIds: try reader.ids(Field.tagIds.rawValue),
            editedOn: fields[Field.editedOn.rawValue]?.string, editedBy: fields[RecordFields.writerKey]?.string)
    }

    /// The record's fields, every one present (`null` where there is no value).
    public var fields: RecordFields {
        [
            Field.title.rawValue: .string(title), Field.body.rawValue: .string(body),
            Field.createdAt.rawValue: .number(createdAt), Field.modifiedAt.rawValue: .number(modifiedAt),
            Field.isPinned.rawValue: .bool(isPinned), Field.folderId.rawValue: .optional(folderId),
            Field.trashedAt.rawValue: .optional(trashedAt), Field.tagIds.rawValue: .array(tagIds.map(FieldValue.string)),
            Field.editedOn.rawValue: .optional(editedOn),
        ]
    }
}
