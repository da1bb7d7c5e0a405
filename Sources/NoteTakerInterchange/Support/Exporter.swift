import Foundation
import NoteTakerKit

/// The formats NoteTaker exports to.
public enum ExportFormat: String, Sendable, Hashable, Codable, CaseIterable {
    /// The complete, lossless NoteTaker JSON export (a folder).
    case json
    /// A folder of Markdown files with front matter, and their attachments.
    case markdown
    /// One PDF document.
    case pdf
}

/// What an export wrote.
public struct ExportReport: Sendable, Hashable, Encodable {
    /// The format written.
    public var format: ExportFormat
    /// Notes written.
    public var notes = 0
    /// Attachment files written.
    public var attachments = 0
    /// Folders written.
    public var folders = 0
    /// Things written differently from the note (a font missing for some characters, ...).
    public var warnings: [Wording] = []

    /// Creates an empty report.
    public init(format: ExportFormat) {
        self.format = format
    }

    /// Encodes the counts, the warnings worded in the encoder's language.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(format, forKey: .format)
        try container.encode(notes, forKey: .notes)
        try container.encode(attachments, forKey: .attachments)
        try container.encode(folders, forKey: .folders)
        try container.encode(warnings.map { Catalog.errors.text($0, in: Language.of(encoder)) }, forKey: .warnings)
    }

    private enum CodingKeys: String, CodingKey { case format, notes, attachments, folders, warnings }
}

/// Exports notes from a store: JSON (lossless), Markdown (for other tools) or PDF (to read
/// and print). The output appears at its path only once complete.
public struct Exporter: Sendable {
    /// The store read from.
    public let store: NoteStore

    /// Creates an exporter for a store.
    public init(store: NoteStore) {
        self.store = store
    }

    /// Writes the selected notes to `output`: a new (or empty) folder for JSON and Markdown,
    /// a new file for PDF. Refuses to overwrite anything.
    public func export(
        _ format: ExportFormat, selection: NoteSelection = NoteSelection(), to output: URL,
        progress: InterchangeProgressHandler? = nil
    ) throws(InterchangeError) -> ExportReport {
        var selection = selection
        let everything = selection.folderId == nil && selection.tag == nil && selection.noteId == nil
        // A whole JSON export is a backup, trash included; a note asked for by id is exported wherever it is.
        if (format == .json && everything) || selection.noteId != nil { selection.includeTrashed = true }
        let location = try OutputLocation(destination: output, isDirectory: format != .pdf)
        do {
            let report: ExportReport
            switch format {
            case .json: report = try JSONExporter(store: store).export(selection, into: location.staging, progress: progress)
            case .markdown: report = try MarkdownExporter(store: store).export(selection, into: location.staging, progress: progress)
            case .pdf: report = try PDFExporter(store: store).export(selection, to: location.staging, progress: progress)
            }
            try location.commit()
            return report
        } catch {
            location.discard()
            throw error
        }
    }
}
