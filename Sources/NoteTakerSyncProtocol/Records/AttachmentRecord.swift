import Foundation

/// An attachment as a sync record: its fields, named and typed once for client and server.
/// The file itself travels as an asset named by its SHA-256 (`contentHash`).
public struct AttachmentRecord: Sendable, Equatable {
    /// The names of an attachment record's fields.
    public enum Field: String, CaseIterable, Sendable {
        case noteId, kind, fileName, fileSize, contentHash, createdAt
    }

    /// The id of the note it belongs to.
    public var noteId: String
    /// What it is (`image`, `pdf`, `file`, …), as the app names it.
    public var kind: String
    /// Its file's name.
    public var fileName: String
    /// Its file's size in bytes.
    public var fileSize: Int
    /// The SHA-256 of its file, in hexadecimal: the name of the asset.
    public var contentHash: String
    /// When it was attached, in seconds since 1970.
    public var createdAt: Double

    /// An attachment record from its values.
    public init(noteId: String, kind: String, fileName: String, fileSize: Int, contentHash: String, createdAt: Double) {
        self.noteId = noteId
        self.kind = kind
        self.fileName = fileName
        self.fileSize = fileSize
        self.contentHash = contentHash
        self.createdAt = createdAt
    }

    /// Reads an attachment record's fields.
    public init(fields: RecordFields) throws(RecordFieldError) {
        let reader = RecordFieldReader(fields)
        self.init(
            noteId: try reader.id(Field.noteId.rawValue), kind: try reader.string(Field.kind.rawValue),
            fileName: try reader.string(Field.fileName.rawValue), fileSize: try reader.count(Field.fileSize.rawValue),
            contentHash: try reader.string(Field.contentHash.rawValue), createdAt: try reader.date(Field.createdAt.rawValue))
    }

    /// The record's fields.
    public var fields: RecordFields {
        [
            Field.noteId.rawValue: .string(noteId), Field.kind.rawValue: .string(kind), Field.fileName.rawValue: .string(fileName),
            Field.fileSize.rawValue: .number(Double(fileSize)), Field.contentHash.rawValue: .string(contentHash),
            Field.createdAt.rawValue: .number(createdAt),
        ]
    }

    /// The asset hash named by an attachment record's fields, without reading the rest.
    public static func contentHash(in fields: RecordFields?) -> String? {
        fields?[Field.contentHash.rawValue]?.string
    }
}
