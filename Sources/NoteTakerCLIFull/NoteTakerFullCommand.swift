import ArgumentParser
import NoteTakerCLI
import NoteTakerInterchange
import NoteTakerKit
import NoteTakerSync
import NoteTakerWeb

/// `notetaker-full`: every `notetaker` command, the companion commands (sync, the web app,
/// import and export) among them. `notetaker` hands those to it.
public struct NoteTakerFullCommand: ParsableCommand {
    /// The same name, abstract and subcommands as `notetaker`, each command with its code.
    public static let configuration = NoteTakerCommand.rootConfiguration(subcommands: NoteTakerCommand.subcommands { command in
        switch command {
        case .account: AccountCommand.self
        case .sync: SyncCommand.self
        case .share: ShareCommand.self
        case .history: HistoryCommand.self
        case .publish: PublishCommand.self
        case .unpublish: UnpublishCommand.self
        case .export: ExportCommand.self
        case .import: ImportCommand.self
        case .serve: ServeCommand.self
        }
    })

    /// Creates the root command (ArgumentParser's requirement).
    public init() {}

    /// Runs a command (the process's arguments when `arguments` is `nil`) and returns the exit
    /// status, as ``NoteTakerCommand/main(arguments:)`` does; the commands here may be asynchronous.
    public static func main(arguments: [String]? = nil) async -> Int32 {
        let arguments = NoteTakerCommand.movingStoreOption(arguments ?? Array(CommandLine.arguments.dropFirst()))
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            return 0
        } catch {
            return NoteTakerCommand.exitStatus(for: error, of: Self.self)
        }
    }
}
