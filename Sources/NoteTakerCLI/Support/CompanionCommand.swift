import ArgumentParser
import Foundation
import NoteTakerKit

/// The commands that `notetaker-full`, the executable installed beside `notetaker`, runs: the
/// ones that need the web server, the sync client or the import and export formats.
///
/// `notetaker` itself holds only what works on the store, so that the commands people run
/// many times a day (`new`, `list`, `show`, `search`) start in a few milliseconds: loading
/// the HTTP, TLS and XML libraries and scanning their type metadata took more than half of a
/// whole process's time. For these commands `notetaker` replaces itself with
/// `notetaker-full`, arguments unchanged, as `git` runs `git-*` programs.
package enum CompanionCommand: String, CaseIterable, Sendable {
    case account, sync, share, history, publish, unpublish, export, `import`, serve

    /// The file name of the companion executable.
    package static let executableName = "notetaker-full"

    /// The one-line description in `notetaker --help`.
    package var abstract: String {
        switch self {
        case .account: "Set up, inspect or leave the sync account."
        case .sync: "Sync with the account's server."
        case .share: "Share a folder or a note with other accounts, end-to-end encrypted; list, accept, leave shares."
        case .history: "A note's earlier versions: list, show, restore; prune by the retention."
        case .publish: "Publish a note as a page anyone with its link can read; --list shows the pages published."
        case .unpublish: "Take down a note's published page."
        case .export: "Export notes: json (complete, re-importable), markdown (for other tools) or pdf."
        case .import:
            "Import notes from a NoteTaker JSON export, a Markdown folder or file (Obsidian, Joplin), an Evernote .enex file, a Google Keep Takeout .zip, a Simplenote export, a Standard Notes backup, a Joplin .jex export, TextBundles (.textbundle, .textpack, Bear's .bear2bk) or a Notion export .zip."
        case .serve: "Run the web app on 127.0.0.1 (Ctrl-C stops it)."
        }
    }

    /// The type that lists the command in `notetaker --help`.
    var entry: any ParsableCommand.Type {
        switch self {
        case .account: AccountEntry.self
        case .sync: SyncEntry.self
        case .share: ShareEntry.self
        case .history: HistoryEntry.self
        case .publish: PublishEntry.self
        case .unpublish: UnpublishEntry.self
        case .export: ExportEntry.self
        case .import: ImportEntry.self
        case .serve: ServeEntry.self
        }
    }

    /// The companion command that `arguments` run (`serve …`, or `help serve`), if any.
    static func named(in arguments: [String]) -> CompanionCommand? {
        guard let first = arguments.first else { return nil }
        if first == "help", arguments.count > 1 { return CompanionCommand(rawValue: arguments[1]) }
        return CompanionCommand(rawValue: first)
    }

    /// Replaces this process with `notetaker-full ARGUMENTS`. Returns only when that cannot
    /// start, with the reason.
    ///
    /// Run from a package's build folder (`swift run notetaker serve` in a fresh clone, where
    /// SwiftPM built only `notetaker`), it first builds `notetaker-full` there.
    static func execute(_ arguments: [String]) -> CommandError {
        guard let folder = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent() else {
            return CommandError("companionNotFound", ["name": executableName])
        }
        let path = folder.appendingPathComponent(executableName).path
        if !FileManager.default.isExecutableFile(atPath: path) {
            guard let build = PackageBuildFolder(folder) else {
                return CommandError("companionMissing", ["name": executableName, "folder": folder.path])
            }
            if let problem = build.build(product: executableName) { return problem }
        }
        fflush(nil)
        var argv: [UnsafeMutablePointer<CChar>?] = (["notetaker"] + arguments).map { strdup($0) }
        argv.append(nil)
        execv(path, argv)
        return CommandError("companionDidNotStart", ["path": path, "reason": String(cString: strerror(errno))])
    }
}

/// A SwiftPM build folder (`PACKAGE/.build/TRIPLE/CONFIGURATION`) that a product can be built into.
struct PackageBuildFolder {
    let package: URL
    let configuration: String

    /// The build folder `folder` is, or `nil` when it is not one.
    init?(_ folder: URL) {
        var package = folder
        while package.lastPathComponent != ".build" {
            guard package.pathComponents.count > 1 else { return nil }
            package.deleteLastPathComponent()
        }
        package.deleteLastPathComponent()
        guard FileManager.default.fileExists(atPath: package.appendingPathComponent("Package.swift").path) else { return nil }
        self.package = package
        configuration = folder.lastPathComponent
    }

    /// Runs `swift build` for `product`, its output on standard error; the problem, if it fails.
    func build(product: String) -> CommandError? {
        let arguments = ["swift", "build", "-c", configuration, "--product", product, "--package-path", package.path]
        Terminal.printNotice(Words.text("companionBuilding", ["name": product, "command": arguments.joined(separator: " ")]))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = FileHandle.standardError
        do {
            try process.run()
        } catch {
            return CommandError("companionBuildDidNotStart", ["name": product, "reason": error.localizedDescription])
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            return CommandError("companionBuildFailed", ["name": product, "status": Int(process.terminationStatus)])
        }
        return nil
    }
}

/// How `notetaker --help` lists a companion command: its name and abstract. `notetaker`
/// hands such a command to `notetaker-full` before parsing, so this type never runs.
protocol CompanionEntry: ParsableCommand {
    static var command: CompanionCommand { get }
}

extension CompanionEntry {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: command.rawValue, abstract: command.abstract)
    }
}

struct AccountEntry: CompanionEntry { static let command = CompanionCommand.account }
struct SyncEntry: CompanionEntry { static let command = CompanionCommand.sync }
struct ShareEntry: CompanionEntry { static let command = CompanionCommand.share }
struct HistoryEntry: CompanionEntry { static let command = CompanionCommand.history }
struct PublishEntry: CompanionEntry { static let command = CompanionCommand.publish }
struct UnpublishEntry: CompanionEntry { static let command = CompanionCommand.unpublish }
struct ExportEntry: CompanionEntry { static let command = CompanionCommand.export }
struct ImportEntry: CompanionEntry { static let command = CompanionCommand.import }
struct ServeEntry: CompanionEntry { static let command = CompanionCommand.serve }
