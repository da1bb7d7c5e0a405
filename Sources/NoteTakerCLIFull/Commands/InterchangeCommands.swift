import ArgumentParser
import NoteTakerCLI
import Foundation
import NoteTakerInterchange
import NoteTakerKit

extension ExportFormat: ExpressibleByArgument {}

/// `notetaker export`: notes to JSON, Markdown or PDF.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: CompanionCommand.export.rawValue, abstract: CompanionCommand.export.abstract,
        discussion: """
            json and markdown write a new folder at --out; pdf writes a file. Nothing existing is overwritten. \
            Without --folder, --tag or --note everything is exported (json includes the trash). \
            The JSON format is described in docs/export-format.md.
            """)

    @Option(help: "json, markdown or pdf.")
    var format: ExportFormat
    @Option(help: ArgumentHelp("Where to write (a new folder for json and markdown, a new file for pdf).", valueName: "path"))
    var out: String
    @Option(help: ArgumentHelp("Only this folder (with its subfolders): a name, a path like Work/Projects, or an id.", valueName: "folder"))
    var folder: String?
    @Option(help: ArgumentHelp("Only notes with this tag.", valueName: "tag"))
    var tag: String?
    @Option(help: ArgumentHelp("Only this note (an id or a unique prefix).", valueName: "id"))
    var note: String?
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: JSONFlag

    func run() throws {
        let store = try storeOptions.openForReading()
        let selection = NoteSelection(
            folderId: try store.folderId(folder), tag: tag,
            noteId: try note.map(store.resolveNoteId))
        let line = Terminal.isInteractive && !output.json ? ProgressLine() : nil
        var progress: InterchangeProgressHandler?
        if let line {
            progress = { done in line.show(Words.text("progressExporting", ["done": done.notes]), throttled: true) }
        }
        let destination = URL(fileURLWithPath: (out as NSString).expandingTildeInPath)
        let report = try Exporter(store: store).export(format, selection: selection, to: destination, progress: progress)
        line?.finish()
        if output.json { return try JSONOutput.print(report) }
        print(InterchangeSummary.text(of: report))
    }
}

/// `notetaker import`: notes from a NoteTaker export, Markdown files, Evernote, Google Keep, Simplenote, Standard Notes, Joplin, TextBundles or Notion.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: CompanionCommand.import.rawValue, abstract: CompanionCommand.import.abstract,
        discussion: """
            The kind is found from what PATH holds. Each note goes in whole or not at all; a note that cannot \
            be imported is skipped and listed with the reason. Importing the same thing again adds nothing twice. \
            Exits with status 1 when a note was skipped or the input was cut off.
            """)

    @Argument(help: ArgumentHelp("The file or folder to import.", valueName: "path"))
    var path: String
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: JSONFlag

    func run() throws {
        let store = try storeOptions.open()
        let line = Terminal.isInteractive && !output.json ? ProgressLine() : nil
        var progress: InterchangeProgressHandler?
        if let line {
            progress = { done in
                let bar = done.fraction.map { ProgressLine.bar($0) + "  " } ?? ""
                if done.indexing {
                    line.show(Words.text("progressImportIndexing", ["bar": bar, "done": done.done, "total": done.total ?? 0]),
                              throttled: done.done < done.total ?? 0)
                } else {
                    line.show(Words.text("progressImporting", ["bar": bar, "done": done.notes]), throttled: true)
                }
            }
        }
        let source = URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
        let report = try Importer(store: store).importItems(at: source, progress: progress)
        line?.finish()
        if output.json { try JSONOutput.print(report) } else { print(InterchangeSummary.text(of: report)) }
        if !report.skipped.isEmpty || report.stoppedEarly != nil { throw ExitCode(1) }
    }
}
