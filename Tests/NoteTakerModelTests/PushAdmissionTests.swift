@testable import NoteTakerModel
import NoteTakerSyncProtocol
import Testing

/// What goes into a push batch, as a table: no store, no server.
@Suite("Building a push batch")
struct PushAdmissionTests {
    typealias Entry = PushAdmission.Entry

    static func save(_ estimate: Int, measured: Int? = nil) -> Entry {
        Entry(isDeletion: false, rowExists: true, estimate: estimate, measured: measured)
    }

    @Test func aSmallSaveGoesIn() {
        #expect(PushAdmission.decide(Self.save(1_000), batchBytes: 0, batchIsEmpty: true) == .add)
        #expect(PushAdmission.decide(Self.save(1_000), batchBytes: 5_000_000, batchIsEmpty: false) == .add)
    }

    @Test func aSaveThatWouldOverflowTheRequestWaitsForTheNextBatch() {
        let budget = PushAdmission.requestBudget
        #expect(PushAdmission.decide(Self.save(600_000, measured: 300_000), batchBytes: budget - 500_000, batchIsEmpty: false) == .batchFull)
        #expect(PushAdmission.decide(Self.save(500_000), batchBytes: budget - 500_000, batchIsEmpty: false) == .add, "exactly full still fits")
    }

    @Test func theFirstRecordOfABatchAlwaysGoesInIfTheServerTakesIt() {
        #expect(PushAdmission.decide(Self.save(1_900_000, measured: 950_000), batchBytes: 0, batchIsEmpty: true) == .add)
        #expect(PushAdmission.decide(Self.save(2_400_000, measured: 1_200_000), batchBytes: 0, batchIsEmpty: true) == .tooLarge(bytes: 1_200_000))
    }

    @Test func deletionsCostNothingAndGoneRowsSendNothing() {
        let deletion = Entry(isDeletion: true, rowExists: false, estimate: 0, measured: nil)
        #expect(PushAdmission.decide(deletion, batchBytes: PushAdmission.requestBudget, batchIsEmpty: false) == .add)
        let gone = Entry(isDeletion: false, rowExists: false, estimate: 0, measured: nil)
        #expect(PushAdmission.decide(gone, batchBytes: 0, batchIsEmpty: true) == .gone)
    }

    @Test func onlyRecordsNearTheLimitAreMeasured() {
        #expect(!PushAdmission.needsMeasuring(estimate: SyncLimits.maxRecordBytes / 2 - 1))
        #expect(PushAdmission.needsMeasuring(estimate: SyncLimits.maxRecordBytes / 2))
    }
}
