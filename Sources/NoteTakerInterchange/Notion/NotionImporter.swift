import Foundation
import NoteTakerKit
import NoteTakerMarkdown

/// Imports Notion's "Markdown & CSV" export: a zip (or, as Notion now sends it, a zip of zips,
/// `Export-…-Part-1.zip`…) of a `.md` per page, named by its title and id, with its subpages,
/// pictures and databases in a folder of the same name; each database a `.csv`. Read in place.
///
/// Pages keep their title (the heading Notion writes first, or the name without its id), text,
/// pictures and files attached in place, and links to other pages as links by id; subpages go
/// into a folder named after their page (ids taken out of every name), a database's rows into
/// one named after the database, their properties (`Status: Done` lines under the title) into
/// the properties block; a database itself becomes a note holding its table.
struct NotionImporter {
    let store: NoteStore
    /// How ids are derived from Notion's.
    let identity: DerivedIdentity
    let archive: URL

    /// A page or CSV larger than this is skipped.
    static let maximumFileSize: Int64 = 64 << 20

    /// Whether `path` (inside a zip) tells the zip is Notion's: a page or database it named, or
    /// a part of an export Notion zipped again.
    static func isTelling(_ path: String) -> Bool {
        NotionPath.isNotion(path) || (ArchivePath.name(path).hasPrefix("Export-") && ArchivePath.fileExtension(path) == "zip")
    }

    func run(_ batcher: ImportBatcher) throws(InterchangeError) {
        let outer = try ZipReader(url: archive)
        let scratch = try ScratchFolder(prefix: "notetaker-notion")
        // Staged attachments and inner zips must outlive the last batch, flushed before this returns.
        defer { scratch.remove() }
        var zips = [outer]
        if !outer.files.isEmpty, outer.files.allSatisfy({ ArchivePath.fileExtension($0.path) == "zip" }) {
            zips = []
            for file in outer.files {
                let copy = scratch.newFile()
                try outer.copy(file, to: copy)
                zips.append(try ZipReader(url: copy))
            }
        }
        // The parts are one export: a page in one may link to a page in another.
        let parts = ZipParts(zips)
        let pages = NotionPages(parts: parts, identity: identity)
        guard !pages.entries.isEmpty else { throw .badExport(path: archive.path, reason: Wording("reasonNotionNoPages")) }
        var folders = FolderMaker(store: store, identity: identity)
        for (position, entry) in pages.entries.enumerated() {
            batcher.reportProgress(done: Int64(position), total: Int64(pages.entries.count))
            try importPage(entry, pages: pages, parts: parts, folders: &folders, scratch: scratch, batcher)
        }
        try batcher.flush()
    }

    private func importPage(
        _ entry: NotionPages.Entry, pages: NotionPages, parts: ZipParts, folders: inout FolderMaker, scratch: ScratchFolder,
        _ batcher: ImportBatcher
    ) throws(InterchangeError) {
        guard entry.file.size <= Self.maximumFileSize, let text = MarkdownImporter.decodeText(try entry.zip.data(entry.file)) else {
            return batcher.skip(entry.file.path, reason: Wording("skipFileUnreadable"))
        }
        var warnings: [Wording] = []
        let folder = ArchivePath.folder(entry.file.path)
        let folderId = folder.isEmpty ? nil : folders.folder(for: NotionPath.folders(folder), warnings: &warnings)
        var page = entry.isDatabase
            ? NotionPage(title: entry.title, body: MarkdownTable.text(CSVTable.rows(text.withUnixLineEnds)))
            : NotionPage(text: text.withUnixLineEnds, fallbackTitle: entry.title, isRow: pages.isDatabaseRow(entry.file.path))
        let staged = try page.resolveLinks(
            from: folder, pages: pages, parts: parts, noteId: entry.id, identity: identity, scratch: scratch, report: &batcher.report)
        let draft = NoteDraft(title: page.title, body: page.body, folderId: folderId, tags: [], id: entry.id)
        try batcher.add(
            NoteImport(draft: draft, files: staged.files, followsSource: true), label: entry.file.path, warnings: warnings + page.warnings,
            temporaryFiles: staged.files.map(\.source), fileBytes: staged.bytes)
    }
}
