import ArgumentParser
import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol

/// `notetaker`: every NoteTaker operation from the command line.
///
/// This executable runs the commands that work on the store; the companion commands
/// (``CompanionCommand``: sync, the web app, import and export) run in `notetaker-full`.
public struct NoteTakerCommand: ParsableCommand {
    /// The command's name, abstract and subcommands.
    public static let configuration = rootConfiguration(subcommands: subcommands { $0.entry })

    /// `notetaker`'s name, abstract and discussion, over `subcommands`.
    package static func rootConfiguration(subcommands: [any ParsableCommand.Type]) -> CommandConfiguration {
        CommandConfiguration(
            commandName: "notetaker",
            abstract: "Offline-first notes: write, organize and search from the command line.",
            discussion: """
                The store is $XDG_DATA_HOME/notetaker/NoteTaker.sqlite (~/.local/share/notetaker/ by default); \
                --store PATH or NOTETAKER_STORE choose another. ID arguments accept any unique prefix of a note's id. \
                A folder F is a name, a path like Work/Projects, or an id.
                """,
            version: NoteTakerVersion.current,
            subcommands: subcommands)
    }

    /// Every subcommand in the order `--help` lists them, with `companion`'s type for each
    /// companion command.
    package static func subcommands(
        companion: (CompanionCommand) -> any ParsableCommand.Type
    ) -> [any ParsableCommand.Type] {
        let notes: [any ParsableCommand.Type] = [
            NewCommand.self, ListCommand.self, ShowCommand.self, EditCommand.self, DuplicateCommand.self,
            RemoveCommand.self, PinCommand.self, UnpinCommand.self, MoveCommand.self,
            TrashCommand.self, RestoreCommand.self, PurgeCommand.self, EmptyTrashCommand.self,
            FolderCommand.self, TagCommand.self,
            AttachCommand.self, AttachmentsCommand.self, DetachCommand.self, ExtractCommand.self,
            SearchCommand.self, LinksCommand.self, BacklinksCommand.self, LinkToCommand.self, StatsCommand.self, PreferencesCommand.self,
        ]
        let sync: [any ParsableCommand.Type] = [
            companion(.account), companion(.sync), companion(.share), ConflictsCommand.self, companion(.history), companion(.publish), companion(.unpublish),
        ]
        let more: [any ParsableCommand.Type] = [companion(.export), companion(.import), companion(.serve), TourCommand.self]
        return notes + sync + more
    }

    /// Creates the root command (ArgumentParser's requirement).
    public init() {}

    /// Runs a command (the process's arguments when `arguments` is `nil`) and returns the exit
    /// status: 0 on success, 1 for an error the user caused (message on stderr), 2 for bad usage.
    /// A companion command replaces this process with `notetaker-full`.
    ///
    /// It is synchronous: no command here awaits anything, and a process that never starts
    /// Swift's task executor starts sooner.
    public static func main(arguments: [String]? = nil) -> Int32 {
        let arguments = movingStoreOption(arguments ?? Array(CommandLine.arguments.dropFirst()))
        if CompanionCommand.named(in: arguments) != nil {
            Terminal.printError(CompanionCommand.execute(arguments).description)
            return 1
        }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
            return 0
        } catch {
            return exitStatus(for: error, of: Self.self)
        }
    }

    /// The exit status for `error`, thrown by a command of `root`, after saying what it is:
    /// 1 for an error the user can act on (worded by ``Words/message(for:)``), 2 for bad
    /// usage, 0 for help.
    package static func exitStatus(for error: any Error, of root: any ParsableCommand.Type) -> Int32 {
        if let error = error as? ExitCode { return error.rawValue }
        if let text = Words.message(for: error) {
            Terminal.printError(text)
            return 1
        }
        let text = root.fullMessage(for: error)
        if root.exitCode(for: error) == .success {
            print(text)
            return 0
        }
        FileHandle.standardError.write(Data((text + "\n").utf8))
        return 2
    }

    /// `notetaker --store PATH new ...` is the documented form, but ArgumentParser reads an
    /// option only after the subcommand that declares it: a leading `--store` (or `--shared`)
    /// moves to the end.
    package static func movingStoreOption(_ arguments: [String]) -> [String] {
        var rest = arguments[...]
        var moved: [String] = []
        while let first = rest.first {
            if first.hasPrefix("--store=") || first.hasPrefix("--shared=") {
                moved.append(first)
                rest = rest.dropFirst()
            } else if first == "--store" || first == "--shared", rest.count >= 2 {
                moved += rest.prefix(2)
                rest = rest.dropFirst(2)
            } else {
                break
            }
        }
        return Array(rest) + moved
    }
}
