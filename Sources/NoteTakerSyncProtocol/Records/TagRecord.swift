import Foundation

/// A tag as a sync record: its fields, named and typed once for client and server.
public struct TagRecord: Sendable, Equatable {
    /// The names of a tag record's fields.
    public enum Field: String, CaseIterable, Sendable {
        case name, createdAt
    }

    /// The tag's name as shown.
    public var name: String
    /// When it was created, in seconds since 1970.
    public var createdAt: Double

    /// A tag record from its values.
    public init(name: String, createdAt: Double) {
        self.name = name
        self.createdAt = createdAt
    }

    /// Reads a tag record's fields.
    public init(fields: RecordFields) throws(RecordFieldError) {
        let reader = RecordFieldReader(fields)
        self.init(name: try reader.string(Field.name.rawValue), createdAt: try reader.date(Field.createdAt.rawValue))
    }

    /// The record's fields.
    public var fields: RecordFields {
        [Field.name.rawValue: .string(name), Field.createdAt.rawValue: .number(createdAt)]
    }
}
