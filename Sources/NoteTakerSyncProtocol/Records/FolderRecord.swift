import Foundation

/// A folder as a sync record: its fields, named and typed once for client and server.
public struct FolderRecord: Sendable, Equatable {
    /// The names of a folder record's fields.
    public enum Field: String, CaseIterable, Sendable {
        case name, icon, sortOrder, createdAt, modifiedAt, parentId
    }

    /// The folder's name.
    public var name: String
    /// Its icon (an emoji or a symbol name), if it has one.
    public var icon: String?
    /// Its place among its siblings.
    public var sortOrder: Int
    /// When it was created, in seconds since 1970.
    public var createdAt: Double
    /// When it was last modified, in seconds since 1970.
    public var modifiedAt: Double
    /// The id of the folder it is in, if any.
    public var parentId: String?

    /// A folder record from its values.
    public init(name: String, icon: String?, sortOrder: Int, createdAt: Double, modifiedAt: Double, parentId: String?) {
        self.name = name
        self.icon = icon
        self.sortOrder = sortOrder
        self.createdAt = createdAt
        self.modifiedAt = modifiedAt
        self.parentId = parentId
    }

    /// Reads a folder record's fields; an icon longer than `maximumIconBytes` is malformed.
    public init(fields: RecordFields, maximumIconBytes: Int = .max) throws(RecordFieldError) {
        let reader = RecordFieldReader(fields)
        self.init(
            name: try reader.string(Field.name.rawValue), icon: try reader.optionalString(Field.icon.rawValue, maxLength: maximumIconBytes),
            sortOrder: try reader.integer(Field.sortOrder.rawValue), createdAt: try reader.date(Field.createdAt.rawValue),
            modifiedAt: try reader.date(Field.modifiedAt.rawValue), parentId: try reader.optionalId(Field.parentId.rawValue))
    }

    /// The record's fields, every one present (`null` where there is no value).
    public var fields: RecordFields {
        [
            Field.name.rawValue: .string(name), Field.icon.rawValue: .optional(icon), Field.sortOrder.rawValue: .number(Double(sortOrder)),
            Field.createdAt.rawValue: .number(createdAt), Field.modifiedAt.rawValue: .number(modifiedAt),
            Field.parentId.rawValue: .optional(parentId),
        ]
    }
}
