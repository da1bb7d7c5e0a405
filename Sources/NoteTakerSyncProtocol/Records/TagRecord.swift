import Foundation

/// A tag as a sync record: its fields, named and typed once for client and server.
public struct TagRecord: Sendable, Equatable {
    /// The names of a tag record's fields.
    public enum Field: String, CaseIterable, Sendable {
        case name, createdAt, replaces, convertedFrom
    }

    /// The tag's name as shown.
    public var name: String
    /// When it was created, in seconds since 1970.
    public var createdAt: Double
    /// For a tag made again after its deletion: the change tag of that deletion, so that a
    /// device that never saw it applies it first (absent otherwise, and from older devices).
    public var replaces: String?
    /// For a tag a conversion to end-to-end encryption sends again under its keyed id: the
    /// change tag of the version of its old id it carries, so that of two devices sending it,
    /// the one that held the later version wins (absent otherwise, and from older devices).
    public var convertedFrom: String?

    /// A tag record from its values.
    public init(name: String, createdAt: Double, replaces: String? = nil, convertedFrom: String? = nil) {
        self.name = name
        self.createdAt = createdAt
        self.replaces = replaces
        self.convertedFrom = convertedFrom
    }

    /// Reads a tag record's fields.
    public init(fields: RecordFields) throws(RecordFieldError) {
        let reader = RecordFieldReader(fields)
        self.init(name: try reader.string(Field.name.rawValue), createdAt: try reader.date(Field.createdAt.rawValue),
                  replaces: try reader.optionalString(Field.replaces.rawValue, maxLength: 64),
                  convertedFrom: try reader.optionalString(Field.convertedFrom.rawValue, maxLength: 64))
    }

    /// The record's fields.
    public var fields: RecordFields {
        var fields: RecordFields = [Field.name.rawValue: .string(name), Field.createdAt.rawValue: .number(createdAt)]
        if let replaces { fields[Field.replaces.rawValue] = .string(replaces) }
        if let convertedFrom { fields[Field.convertedFrom.rawValue] = .string(convertedFrom) }
        return fields
    }
}
