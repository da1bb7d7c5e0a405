import Foundation
import GRDB
import Logging
import Testing

@testable import NoteTakerServer

/// What a storage failure is taken for, what a device is answered, and when the operator is
/// told: once when a failure begins, once when it ends.
@Suite struct StorageFailureTests {
    @Test func failuresAreTakenForWhatTheyAre() {
        #expect(StorageFailure.classify(DatabaseUnreachable(reason: "no connection")) == .unreachable("no connection"))
        #expect(StorageFailure.classify(DatabaseError(resultCode: .SQLITE_FULL, message: "database or disk is full"))
            == .full("SQLite: database or disk is full"))
        #expect(StorageFailure.classify(POSIXError(.ENOSPC)) == .full("no space left on the device"))
        #expect(StorageFailure.classify(CocoaError(.fileWriteOutOfSpace)) == .full("no space left on the device"))
        guard case .other = StorageFailure.classify(DatabaseError(resultCode: .SQLITE_CORRUPT)) else {
            Issue.record("a corrupt database is not a full disk")
            return
        }
    }

    @Test func devicesHearWhatIsWrongWithoutTheInternals() {
        let unreachable = StorageFailure.unreachable("cannot connect to PostgreSQL (refused at 10.0.0.5:5432)").answer
        #expect(unreachable.code == .unavailable && unreachable.status.code == 503)
        #expect(unreachable.message.contains("cannot reach its database") && !unreachable.message.contains("10.0.0.5"))
        let full = StorageFailure.full("SQLite: database or disk is full").answer
        #expect(full.code == .serverFull && full.status.code == 507 && full.message.contains("no room left"))
        #expect(StorageFailure.other("x").answer.code == .internalError)
    }

    @Test func anOutageIsReportedWhenItBeginsAndWhenItEnds() {
        let condition = StorageCondition()
        #expect(condition.succeeded() == .none)
        #expect(condition.failed(.unreachable("a")) == .began(.unreachable("a")))
        #expect(condition.failed(.unreachable("b")) == .none, "the same outage is not reported again")
        #expect(condition.failed(.unreachable("c")) == .none)
        #expect(condition.failure == .unreachable("a"))
        #expect(condition.failed(.full("d")) == .began(.full("d")), "another kind of failure is")
        #expect(condition.failed(.other("e")) == .began(.other("e")), "an unexpected failure is always reported")
        #expect(condition.succeeded() == .ended(failedCalls: 4))
        #expect(condition.succeeded() == .none)
        #expect(condition.failure == nil)
    }

    @Test func aFullDiskAnswers507AndTheHealthSays503() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-health-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let service = try ServerConfiguration(database: .sqlite(folder)).makeService()
        #expect(await service.checkedHealth().database == "ok")
        await #expect(throws: StorageFailure.full("no space left on the device").answer) {
            try await service.storing { throw POSIXError(.ENOSPC) }
        }
        await #expect(throws: StorageFailure.unreachable("gone").answer) {
            try await service.storing { throw DatabaseUnreachable(reason: "gone") }
        }
        #expect(service.condition.failure == .unreachable("gone"), "the latest kind of failure is the one going on")
        let healthy = await service.checkedHealth()
        #expect(healthy.status == "ok" && healthy.database == "ok", "a storage that answers again is healthy: \(healthy)")
        #expect(service.condition.failure == nil)
    }
}
