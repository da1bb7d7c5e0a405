import ArgumentParser
import Foundation
import Hummingbird
import Logging
import NoteTakerServer
import NoteTakerSyncProtocol

/// `notetaker-server`: the self-hosted sync server.
@main
struct ServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notetaker-server",
        abstract: "Run the NoteTaker sync server (accounts, records, attachment files, push).",
        version: NoteTakerVersion.current,
        subcommands: [ServeCommand.self, MigrateCommand.self, MigrateDataCommand.self, AccountCommand.self, BackupCommand.self, RestoreCommand.self],
        defaultSubcommand: ServeCommand.self)
}

/// Opens the storage, with a message a person can act on when it cannot be.
func openBackend(_ configuration: ServerConfiguration) async throws -> ServerBackend {
    try await reportingFailure("could not open the server's storage at \(configuration.database)") { try await configuration.openBackend() }
}

/// Opens the storage for `serve`: while the database cannot be reached (a node started before
/// PostgreSQL, or during its restart), tries again with a growing wait (1 s, doubling, at most
/// 30 s), logging the first failure and the recovery, so that a service manager need not
/// restart it in a loop. Any other failure stops the command, as ``openBackend(_:)`` does.
func openBackend(_ configuration: ServerConfiguration, logger: Logger) async throws -> ServerBackend {
    var wait = Duration.seconds(1)
    var attempts = 0
    while true {
        do {
            let backend = try await configuration.openBackend()
            if attempts > 0 { logger.notice("The database is reachable; starting after \(attempts) failed attempt\(attempts == 1 ? "" : "s").") }
            return backend
        } catch {
            guard case .unreachable(let reason) = StorageFailure.classify(error) else {
                // Reported as `openBackend(_:)` reports it, without opening the storage again.
                return try await reportingFailure("could not open the server's storage at \(configuration.database)") { throw error }
            }
            if attempts == 0 {
                logger.error("The database cannot be reached (\(reason)); trying again until it can, waiting up to 30 s between attempts.")
            }
            attempts += 1
            try await Task.sleep(for: wait)
            wait = min(wait * 2, .seconds(30))
        }
    }
}

/// Runs `body`; a failure is printed as one `error:` line (`doing` says what failed, when the
/// error does not) and the command exits with status 1.
func reportingFailure<T>(_ doing: String, _ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as SyncServerError {
        FileHandle.standardError.write(Data("error: \(error.message)\n".utf8))
    } catch {
        FileHandle.standardError.write(Data("error: \(doing): \(PostgresDatabase.reason(error) ?? "\(error)")\n".utf8))
    }
    throw ExitCode.failure
}

/// Whether anyone may create an account.
enum Registration: String, ExpressibleByArgument, CaseIterable {
    case open, closed
}
