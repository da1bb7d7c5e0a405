import Foundation
@testable import NoteTakerKit
@testable import NoteTakerSync
import NoteTakerSyncProtocol
import Testing

/// The push's order of work, without a store or a network: the outbox is a script of the
/// batches each read finds, and the server a script of which answers merge.
@Suite("The push pipeline")
struct PushPipelineTests {
    /// A batch named `name`, changing the records named by `records` (one letter each), at
    /// outbox sequences `sequences`; `files`: it needs files uploaded first.
    static func batch(_ name: String, _ records: String, sequences: [Int64] = [], files: Bool = false) -> PushBatch {
        let changes = records.map { letter in
            RecordChange(recordType: "note", recordId: UUID(uuidString: "00000000-0000-0000-0000-0000000000\(letter.asciiValue ?? 0)") ?? UUID(),
                         operation: .save, baseChangeTag: nil, fields: [:])
        }
        return PushBatch(request: ModifyRequest(requestId: id(name), changes: changes), sequences: sequences,
                         assetHashes: files ? ["hash"] : [])
    }

    static func id(_ name: String) -> UUID {
        UUID(uuidString: "00000000-0000-0000-0000-\(String(repeating: "0", count: 12 - name.utf8.count))\(name)") ?? UUID()
    }

    /// Runs the pipeline: each read takes the next of `reads` (nothing once they are used
    /// up); the batches in `merged` are answered with a merge, the others saved as sent;
    /// those in `heldBack` lose every change to a refused file. Returns what it did, a word
    /// per action, and the pipeline at the end.
    static func run(reads: [PushBatch], merged: Set<String> = [], heldBack: Set<String> = []) -> ([String], PushPipeline) {
        var reads = reads[...]
        var pipeline = PushPipeline()
        var log: [String] = []
        func name(_ batch: PushBatch) -> String {
            String(batch.request.requestId.uuidString.suffix(12).drop { $0 == "0" })
        }
        func answer(_ batch: PushBatch) -> Result<ModifyResponse, SyncError> {
            .success(ModifyResponse(results: batch.request.changes.map {
                RecordResult(recordId: $0.recordId, recordType: $0.recordType, outcome: merged.contains(name(batch)) ? .serverRecordChanged : .saved,
                             changeTag: "1")
            }))
        }
        for _ in 0..<100 {
            switch pipeline.next() {
            case .read:
                let batch = reads.popFirst()
                log.append("read \(batch.map(name) ?? "-")")
                pipeline.read(batch)
            case .start(let batch):
                log.append("start \(name(batch))")
                if heldBack.contains(name(batch)) { pipeline.emptied() } else { pipeline.sent(batch) }
            case .sendAlong(let batch):
                log.append("along \(name(batch))")
                pipeline.sent(batch)
            case .awaitAnswer(let batch):
                log.append("await \(name(batch))")
                pipeline.answered(answer(batch))
            case .finish(let batch, _, keeping: let after?):
                log.append("finish \(name(batch)) keeping \(name(after))")
                pipeline.sent(after)
            case .finish(let batch, _, keeping: nil):
                log.append("finish \(name(batch))")
                pipeline.finished()
            case .settle(let batch, let result):
                log.append("settle \(name(batch))")
                pipeline.settled(clean: (try? result.get())?.results.allSatisfy { $0.outcome == .saved } ?? false)
            case .done:
                log.append("done")
                return (log, pipeline)
            }
        }
        Issue.record("the pipeline did not end: \(log.suffix(10))")
        return (log, pipeline)
    }

    @Test("an empty outbox: one read, and done")
    func empty() {
        #expect(Self.run(reads: []).0 == ["read -", "done"])
    }

    @Test("three batches of different records: two in flight, each answer keeps the next")
    func threeBatches() {
        let (log, pipeline) = Self.run(reads: [Self.batch("1", "a", sequences: [1]), Self.batch("2", "b", sequences: [2]),
                                               Self.batch("3", "c", sequences: [3])])
        #expect(log == ["read 1", "start 1", "read 2", "along 2", "await 1", "read 3", "finish 1 keeping 3",
                        "await 2", "read -", "finish 2", "await 3", "read -", "finish 3", "done"])
        #expect(pipeline.cursor == 3 && pipeline.done == 3 && pipeline.inFlight.isEmpty)
    }

    @Test("a batch holding a record of the one in flight waits for its answer, then is read again")
    func sharedRecordWaits() {
        let (log, _) = Self.run(reads: [Self.batch("1", "ab"), Self.batch("2", "bc"), Self.batch("3", "bc")])
        #expect(log == ["read 1", "start 1", "read 2", "await 1", "finish 1", "read 3", "start 3", "read -", "await 3",
                        "read -", "finish 3", "done"])
    }

    @Test("a batch that needs files uploaded is not sent along: it starts once nothing is in flight")
    func filesWait() {
        let (log, _) = Self.run(reads: [Self.batch("1", "a"), Self.batch("2", "b", files: true)])
        #expect(log == ["read 1", "start 1", "read 2", "await 1", "finish 1", "start 2", "read -", "await 2", "read -", "finish 2", "done"])
    }

    @Test("after an answer that merged, the outbox is read again; the batch in flight is still answered")
    func mergeReadsAgain() {
        let (log, pipeline) = Self.run(reads: [Self.batch("1", "a"), Self.batch("2", "b"), Self.batch("4", "a")], merged: ["1"])
        #expect(log == ["read 1", "start 1", "read 2", "along 2", "await 1", "settle 1", "read 4", "along 4", "await 2", "read -",
                        "finish 2", "await 4", "read -", "finish 4", "done"])
        #expect(pipeline.done == 3)
    }

    @Test("a batch whose every change is held back is dropped, and the next is read")
    func heldBack() {
        let (log, _) = Self.run(reads: [Self.batch("1", "a"), Self.batch("2", "b")], heldBack: ["1"])
        #expect(log == ["read 1", "start 1", "read 2", "start 2", "read -", "await 2", "read -", "finish 2", "done"])
    }

    @Test("reports out of turn change nothing")
    func outOfTurn() {
        var pipeline = PushPipeline()
        pipeline.sent(Self.batch("1", "a"))
        pipeline.answered(.failure(.notConfigured))
        pipeline.finished()
        pipeline.settled(clean: true)
        #expect(pipeline.inFlight.isEmpty)
        guard case .read = pipeline.next() else {
            Issue.record("a new pipeline reads first")
            return
        }
    }
}
