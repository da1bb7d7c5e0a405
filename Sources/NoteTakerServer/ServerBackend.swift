import Foundation
import ServiceLifecycle

/// Where everything the server keeps lives: a folder (an SQLite file and the attachment
/// files), or a PostgreSQL database that several server processes can share.
public enum ServerDatabase: Sendable, Hashable, CustomStringConvertible {
    /// A folder holding `NoteTakerServer.sqlite` and `assets/`.
    case sqlite(URL)
    /// A PostgreSQL URL, `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`.
    case postgres(String)

    /// Reads `--database`: `sqlite:DIR`, or a `postgres://` (or `postgresql://`) URL.
    ///
    /// A message about a bad argument never repeats it whole: it may hold a password.
    public init(argument: String) throws(SyncServerError) {
        if argument.hasPrefix("postgres://") || argument.hasPrefix("postgresql://") {
            let authority = argument.drop { $0 != "/" }.dropFirst(2).prefix { $0 != "/" && $0 != "?" }
            guard authority.filter({ $0 == "@" }).count <= 1 else {
                throw .badRequest("The PostgreSQL URL holds more than one '@'. A password with '@', ':', '/', '?' or '#' must be "
                    + "percent-encoded in the URL ('@' as %40), or kept out of it: PGPASSWORD or --database-password-file.")
            }
            self = .postgres(argument)
        } else if argument.hasPrefix("sqlite:"), argument.count > "sqlite:".count {
            self = .sqlite(URL(fileURLWithPath: String(argument.dropFirst("sqlite:".count)), isDirectory: true))
        } else {
            let scheme = argument.prefix { $0 != ":" }.prefix(20)
            throw .badRequest("--database takes sqlite:FOLDER or postgres://USER@HOST[:PORT]/DATABASE, not '\(scheme):…'.")
        }
    }

    /// Where the data is, for messages (a PostgreSQL URL without its password).
    public var description: String {
        switch self {
        case .sqlite(let directory):
            return directory.path
        case .postgres(let url):
            guard var components = URLComponents(string: url) else { return "PostgreSQL" }
            if components.password != nil { components.password = "***" }
            return components.string ?? "PostgreSQL"
        }
    }

    /// The argument to give `--database` again, without a password: one to paste into a
    /// command or a unit file, the password going by PGPASSWORD or a password file.
    public var argumentWithoutPassword: String {
        switch self {
        case .sqlite(let directory):
            return "sqlite:" + directory.path
        case .postgres(let url):
            guard var components = URLComponents(string: url) else { return "postgres://…" }
            components.password = nil
            return components.string ?? "postgres://…"
        }
    }

    /// The kind of storage, for logs: `sqlite` or `postgres`.
    public var kind: String {
        switch self {
        case .sqlite: "sqlite"
        case .postgres: "postgres"
        }
    }

    /// Whether the argument held a password.
    public var holdsPassword: Bool {
        guard case .postgres(let url) = self else { return false }
        return URLComponents(string: url)?.password != nil
    }
}

/// The opened storage: the service over it, and the services that must run beside the HTTP
/// server for it (PostgreSQL's connection pool, the listener for other nodes' events).
public struct ServerBackend: Sendable {
    /// The sync service.
    public let service: SyncService
    /// What runs beside the HTTP server, started before it and stopped after it.
    public let services: [any Service]

    /// Creates a backend.
    public init(service: SyncService, services: [any Service] = []) {
        self.service = service
        self.services = services
    }
}

extension ServerBackend {
    /// Runs `body` with the backend's services running beside it, then stops them: for
    /// commands that use the storage without serving (`notetaker-server account add`).
    public func withServicesRunning<T: Sendable>(_ body: @escaping @Sendable (SyncService) async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            for service in services {
                group.addTask {
                    try await service.run()
                    return nil
                }
            }
            group.addTask { try await body(self.service) }
            defer { group.cancelAll() }
            while let result = try await group.next() {
                if let result { return result }
            }
            throw SyncServerError(.internalError, "The server's storage stopped before the command finished.")
        }
    }
}
