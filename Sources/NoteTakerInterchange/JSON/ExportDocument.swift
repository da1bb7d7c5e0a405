import Foundation
import NoteTakerKit

/// The NoteTaker JSON export, version 1 (documented in `docs/export-format.md`).
///
/// An export is a folder: `notetaker-export.json` (this manifest: folders and tags),
/// `notes.jsonl` (one ``ExportedNote`` per line, so both sides stream), and
/// `attachments/xx/SHA256` (each file once, named by its content's SHA-256).
/// Ids are lowercase UUID text, dates ISO 8601 in UTC with milliseconds, absent values `null`.
struct ExportManifest: Codable {
    static let formatName = "notetaker-export"
    static let currentVersion = 1
    static let fileName = "notetaker-export.json"
    static let notesFileName = "notes.jsonl"
    static let attachmentsFolder = "attachments"

    var format: String
    var version: Int
    var folders: [ExportedFolder]
    var tags: [ExportedTag]
    var notes: String
    var attachments: String
}

/// A folder in an export.
struct ExportedFolder: Codable {
    var id: String
    var name: String
    @Nullable var parentId: String?
    @Nullable var icon: String?
    var sortOrder: Int
    var createdAt: Date
    var modifiedAt: Date
}

/// A tag in an export.
struct ExportedTag: Codable {
    var name: String
    var createdAt: Date
}

/// A note in an export: one line of `notes.jsonl`.
struct ExportedNote: Codable {
    var id: String
    var title: String
    var body: String
    var createdAt: Date
    var modifiedAt: Date
    var isPinned: Bool
    @Nullable var folderId: String?
    var tags: [String]
    @Nullable var trashedAt: Date?
    var attachments: [ExportedAttachment]
}

/// An attachment in an export; its bytes are in `path`.
struct ExportedAttachment: Codable {
    var id: String
    var fileName: String
    var kind: Attachment.Kind
    var size: Int64
    var sha256: String
    var createdAt: Date
    var path: String
}

extension ExportManifest {
    /// The encoder for every JSON file of an export: sorted keys, ISO 8601 dates, no slashes escaped.
    static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Timestamp.string(date))
        }
        return encoder
    }

    /// The decoder matching ``makeEncoder()``.
    static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = Timestamp.date(from: text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not an ISO 8601 date")
            }
            return date
        }
        return decoder
    }

    /// The path inside the export of the file with this content hash.
    static func attachmentPath(hash: String) -> String {
        "\(attachmentsFolder)/\(hash.prefix(2))/\(hash)"
    }
}
