import ArgumentParser
import Foundation
import NoteTakerInterchange
import NoteTakerKit

/// `notetaker`: every NoteTaker operation from the command line.
public struct NoteTakerCommand: ParsableCommand {
    /// The command's name, abstract and subcommands.
    public static let configuration = CommandConfiguration(
        commandName: "notetaker",
        abstract: "Offline-first notes: write, organize and search from the command line.",
        discussion: """
            The store is $XDG_DATA_HOME/notetaker/NoteTaker.sqlite (~/.local/share/notetaker/ by default); \
            --store PATH or NOTETAKER_STORE choose another. ID arguments accept any unique prefix of a note's id. \
            A folder F is a name, a path like Work/Projects, or an id.
            """,
        subcommands: [
            NewCommand.self, ListCommand.self, ShowCommand.self, EditCommand.self,
            RemoveCommand.self, PinCommand.self, UnpinCommand.self, MoveCommand.self,
            TrashCommand.self, RestoreCommand.self, PurgeCommand.self, EmptyTrashCommand.self,
            FolderCommand.self, TagCommand.self,
            AttachCommand.self, AttachmentsCommand.self, DetachCommand.self, ExtractCommand.self,
            SearchCommand.self, LinksCommand.self, BacklinksCommand.self, LinkToCommand.self, StatsCommand.self,
            AccountCommand.self, SyncCommand.self, ConflictsCommand.self, HistoryCommand.self,
            ExportCommand.self, ImportCommand.self,
            ServeCommand.self, TourCommand.self,
        ]
    )

    /// Creates the root command (ArgumentParser's requirement).
    public init() {}

    /// Parses `arguments` (the process's when `nil`), runs the command, and returns the exit
    /// status: 0 on success, 1 for an error the user caused (message on stderr), 2 for bad usage.
    public static func main(arguments: [String]? = nil) async -> Int32 {
        do {
            var command = try parseAsRoot(movingStoreOption(arguments ?? Array(CommandLine.arguments.dropFirst())))
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            return 0
        } catch let error as NoteTakerError {
            Terminal.printError(error.message)
            return 1
        } catch let error as SyncError {
            Terminal.printError(error.message)
            return 1
        } catch let error as InterchangeError {
            Terminal.printError(error.message)
            return 1
        } catch let error as ExitCode {
            return error.rawValue
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                print(message)
                return 0
            }
            FileHandle.standardError.write(Data((message + "\n").utf8))
            return 2
        }
    }

    /// `notetaker --store PATH new ...` is the documented form, but ArgumentParser reads an
    /// option only after the subcommand that declares it: a leading `--store` moves to the end.
    static func movingStoreOption(_ arguments: [String]) -> [String] {
        var rest = arguments[...]
        var moved: [String] = []
        while let first = rest.first {
            if first.hasPrefix("--store=") {
                moved.append(first)
                rest = rest.dropFirst()
            } else if first == "--store", rest.count >= 2 {
                moved += rest.prefix(2)
                rest = rest.dropFirst(2)
            } else {
                break
            }
        }
        return Array(rest) + moved
    }
}
