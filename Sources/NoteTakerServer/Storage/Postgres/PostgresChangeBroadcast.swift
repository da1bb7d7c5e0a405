import Foundation
import Synchronization
import PostgresNIO

/// Server events between the nodes on one PostgreSQL database, by `NOTIFY` and `LISTEN`.
///
/// Why this and not polling or a separate message broker: a notification is delivered to
/// every listening node within milliseconds of the sending transaction's commit, nothing
/// more has to be operated, and a node that loses its connection catches up by asking for
/// each listening account's newest change when it listens again (``ChangeBroadcast``'s
/// `connected`), since notifications sent meanwhile are not kept.
public struct PostgresChangeBroadcast: ChangeBroadcast {
    let database: PostgresDatabase
    /// The notification channel.
    static let channel = "notetaker_events"

    /// A broadcast over `database`.
    public init(database: PostgresDatabase) {
        self.database = database
    }

    /// Sends the event to every node listening.
    public func publish(_ event: ServerEvent) async throws {
        try await database.query("SELECT pg_notify(\(Self.channel), \(event.payload))")
    }

    /// Listens on a connection of its own, connecting again a second after losing it. The loss
    /// is logged once, and the reconnection once, however long the database stays away.
    public func listen(connected: @Sendable () async -> Void, deliver: @Sendable (ServerEvent) async -> Void) async throws {
        let lost = Mutex(false)
        while !Task.isCancelled {
            do {
                try await database.withSetUpConnection { connection in
                    try await connection.listen(on: Self.channel) { notifications in
                        if lost.withLock({ $0 }) {
                            lost.withLock { $0 = false }
                            database.logger.notice("Listening for other nodes' changes again.")
                        }
                        await connected()
                        for try await notification in notifications {
                            if let event = ServerEvent(payload: notification.payload) { await deliver(event) }
                        }
                    }
                }
            } catch where !Task.isCancelled {
                if !lost.withLock({ $0 }) {
                    lost.withLock { $0 = true }
                    database.logger.warning(
                        "The connection listening for other nodes' changes was lost (\(PostgresDatabase.reason(error) ?? "\(type(of: error))")); connecting again every second.")
                }
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }
}
