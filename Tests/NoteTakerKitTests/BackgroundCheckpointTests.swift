import Foundation
import GRDB
import Testing
@testable import NoteTakerKit

@Suite("Background checkpoint")
struct BackgroundCheckpointTests {
    let folder = TemporaryDirectory()

    /// The database file only grows when the log is copied into it: in WAL mode, committed
    /// pages stay in the log until a checkpoint.
    private func databaseFileSize(_ url: URL) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0
    }

    private func connection(at url: URL, checkpoint: BackgroundCheckpoint) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.prepareDatabase { db in checkpoint.install(on: db) }
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = WAL") }
        try queue.write { try $0.execute(sql: "CREATE TABLE page (content BLOB NOT NULL)") }
        return queue
    }

    @Test func aLogPastItsThresholdIsCopiedIntoTheDatabaseFile() throws {
        let url = folder.file("checkpoint.sqlite")
        let queue = try connection(at: url, checkpoint: BackgroundCheckpoint(path: url.path, pages: 16))
        let before = try databaseFileSize(url)
        // About 64 pages: far below SQLite's own automatic checkpoint (1,000 pages).
        try queue.write { db in
            for _ in 0..<64 { try db.execute(sql: "INSERT INTO page (content) VALUES (randomblob(4000))") }
        }
        let deadline = Date().addingTimeInterval(10)
        while try databaseFileSize(url) < before + 64 * 4_000 {
            guard Date() < deadline else {
                Issue.record("The log was not copied into the database file within 10 seconds.")
                return
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(try queue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM page") } == 64)
    }

    @Test func aLogBelowItsThresholdStaysALog() throws {
        let url = folder.file("small.sqlite")
        let queue = try connection(at: url, checkpoint: BackgroundCheckpoint(path: url.path, pages: 1_000))
        let before = try databaseFileSize(url)
        try queue.write { try $0.execute(sql: "INSERT INTO page (content) VALUES (randomblob(4000))") }
        // Give a wrongly scheduled checkpoint the time to show.
        Thread.sleep(forTimeInterval: 0.2)
        #expect(try databaseFileSize(url) == before)
    }
}
