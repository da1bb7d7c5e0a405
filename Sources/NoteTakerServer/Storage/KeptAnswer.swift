import Foundation
import NoteTakerSyncProtocol

/// How a batch sent again is answered from the answer kept when it was applied: the same
/// rule for every storage (SQLite, PostgreSQL), which only reads the records it names.
///
/// A kept answer outlives the records it names. A record saved by the batch may have been
/// deleted since by another device and its tombstone purged: answered "saved" as before, the
/// device sending again would keep, for good, a record no other device has; decided anew,
/// its save would make the record again over a deletion that followed it. Neither: the batch
/// is answered with the deletion the device missed.
enum KeptAnswer {
    /// The answer to give again: `kept` (``BatchPlan/keptAnswer()``) with each refused
    /// change's record as the server holds it now (`held`, by key), and each change of a
    /// record the server no longer holds refused with a deletion at `purgedThrough` (see
    /// ``RecordVersioning/purgedDeletion(recordType:recordId:purgedThrough:)``).
    static func replay(_ kept: ModifyResponse, held: [BatchPlan.RecordKey: SyncRecord], purgedThrough: Int64) -> ModifyResponse {
        var response = kept
        for index in response.results.indices where response.results[index].outcome != .error {
            let result = response.results[index]
            if let record = held[BatchPlan.RecordKey(recordId: result.recordId.key, recordType: result.recordType)] {
                if result.outcome == .serverRecordChanged { response.results[index].serverRecord = record }
                continue
            }
            response.results[index] = RecordResult(
                recordId: result.recordId, recordType: result.recordType, outcome: .serverRecordChanged,
                serverRecord: RecordVersioning.purgedDeletion(recordType: result.recordType, recordId: result.recordId, purgedThrough: purgedThrough))
        }
        return response
    }

    /// The records a kept answer names, whose current versions ``replay(_:held:purgedThrough:)`` needs.
    static func keys(_ kept: ModifyResponse) -> Set<BatchPlan.RecordKey> {
        Set(kept.results.filter { $0.outcome != .error }.map { BatchPlan.RecordKey(recordId: $0.recordId.key, recordType: $0.recordType) })
    }
}
