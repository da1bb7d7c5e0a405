import Foundation
import NoteTakerKit

/// Writes notes as one PDF: each note from a new page, with its title, dates, folder and
/// tags, then its Markdown rendered (headings, emphasis, lists, checklists, quotes, code,
/// links with their address, tables, pictures). Text is shaped by Pango, so any script an
/// installed font covers prints; characters no font has are reported.
struct PDFExporter {
    static let bodyFont = "DejaVu Sans, sans-serif 10px"
    static let monoFont = "DejaVu Sans Mono, monospace 9px"

    let store: NoteStore

    func export(_ selection: NoteSelection, to file: URL, progress: InterchangeProgressHandler?) throws(InterchangeError) -> ExportReport {
        let library = try PangoCairo.load()
        let scope = try ExportScope(store: store)
        let preferences: Preferences
        do {
            preferences = try store.preferences()
        } catch {
            throw .store(error)
        }
        let writer = try PDFWriter(library: library, file: file, title: "NoteTaker notes")
        var report = ExportReport(format: .pdf)
        var notesWithMissingGlyphs: [String] = []
        try eachNote(of: store, in: selection) { notes throws(InterchangeError) in
            for note in notes {
                let before = writer.missingGlyphs
                draw(note, folder: note.folderId.flatMap { scope.paths[$0] }?.joined(separator: " / "), preferences: preferences, on: writer, report: &report)
                if writer.missingGlyphs > before { notesWithMissingGlyphs.append(note.displayTitle) }
            }
            report.notes += notes.count
            progress?(InterchangeProgress(done: Int64(report.notes), total: nil, notes: report.notes))
        }
        if report.notes == 0 { writer.text("No notes to export.", font: Self.bodyFont, grey: 0.4) }
        try writer.finish()
        if !notesWithMissingGlyphs.isEmpty {
            let titles = notesWithMissingGlyphs.prefix(5).joined(separator: ", ")
            report.warnings.append(notesWithMissingGlyphs.count > 5
                ? Wording("pdfMissingGlyphsMore", ["titles": titles, "count": notesWithMissingGlyphs.count - 5])
                : Wording("pdfMissingGlyphs", ["titles": titles]))
        }
        return report
    }

    private func draw(_ note: Note, folder: String?, preferences: Preferences, on writer: PDFWriter, report: inout ExportReport) {
        writer.newPage()
        writer.text("<b>\(PrintBlock.escape(note.displayTitle))</b>", font: "DejaVu Sans, sans-serif 18px")
        var details = ["Created \(Self.date(note.createdAt))", "modified \(Self.date(note.modifiedAt))"]
        if let folder { details.append("in \(folder)") }
        if !note.tags.isEmpty { details.append("tags: " + note.tags.joined(separator: ", ")) }
        if note.isPinned { details.append("pinned") }
        writer.space(2)
        writer.text(PrintBlock.escape(details.joined(separator: " · ")), font: "DejaVu Sans, sans-serif 8.5px", grey: 0.4)
        writer.space(12)
        let attachments = Dictionary(note.attachments.map { ($0.id.key, $0) }, uniquingKeysWith: { first, _ in first })
        for block in PrintBlock.blocks(note.body, preferences: preferences) {
            switch block {
            case .heading(let level, let markup):
                writer.space(level <= 2 ? 10 : 6)
                writer.text("<b>\(markup)</b>", font: "DejaVu Sans, sans-serif \([16, 14, 12, 11, 10, 10][level - 1])px")
                writer.space(4)
            case .paragraph(let markup):
                writer.text(markup, font: Self.bodyFont)
                writer.space(6)
            case .listItem(let depth, let marker, let markup):
                writer.text("\(PrintBlock.escape(marker))  \(markup)", font: Self.bodyFont, indent: 12 + Double(depth) * 16)
                writer.space(2)
            case .quote(let markup):
                writer.text("<i>\(markup)</i>", font: Self.bodyFont, indent: 14, grey: 0.3, bar: true)
                writer.space(6)
            case .code(let text):
                writer.text(PrintBlock.escape(text), font: Self.monoFont, indent: 4, background: true)
                writer.space(6)
            case .rule:
                writer.rule()
            case .image(let target, let alt):
                let id = target.hasPrefix("attachment:") ? String(target.dropFirst("attachment:".count)).lowercased() : ""
                if let attachment = attachments[id], writer.picture(at: store.fileURL(for: attachment)) {
                    writer.space(6)
                } else {
                    writer.text("[picture: \(PrintBlock.escape(alt.isEmpty ? target : alt))]", font: Self.bodyFont, grey: 0.4)
                    writer.space(6)
                }
            }
        }
        var unmentioned = note.attachments.filter { !note.body.contains("attachment:\($0.id.key)") }
        unmentioned.removeAll { $0.kind == .image && writer.picture(at: store.fileURL(for: $0)) }
        if !unmentioned.isEmpty {
            writer.space(6)
            writer.text("Attachments: " + PrintBlock.escape(unmentioned.map(\.fileName).joined(separator: ", ")),
                        font: "DejaVu Sans, sans-serif 8.5px", grey: 0.4)
        }
        report.attachments += note.attachments.count
    }

    private static func date(_ date: Date) -> String {
        date.formatted(Date.FormatStyle(date: .abbreviated, time: .shortened, timeZone: .current))
    }
}
