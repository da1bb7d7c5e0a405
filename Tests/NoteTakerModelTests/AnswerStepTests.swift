@testable import NoteTakerModel
import NoteTakerSyncProtocol
import Testing

/// What the server's answer to a pushed change does, step by step, as a table: no store, no server.
@Suite("The steps that carry out a push's answer")
struct AnswerStepTests {
    typealias Situation = AnswerStep.Situation

    struct Case: CustomTestStringConvertible, Sendable {
        var what: String
        var situation: Situation
        var expected: [AnswerStep]
        var testDescription: String { what }
    }

    static func answer(
        _ answer: AnswerStep.Answer, _ operation: RecordChange.Operation = .save, unchangedSince: Bool = true, exists: Bool = true,
        staging: Bool = false, sentBefore: Bool = false
    ) -> Situation {
        Situation(answer: answer, operation: operation, unchangedSince: unchangedSince, exists: exists, staging: staging,
                  sentBefore: sentBefore)
    }

    static let table: [Case] = [
        Case(what: "a save not changed since is synced and leaves the outbox", situation: answer(.saved),
             expected: [.countPushed, .markSynced(unchangedSince: true), .dropPendingChange]),
        Case(what: "a save changed while in flight is synced at the new tag and stays pending",
             situation: answer(.saved, unchangedSince: false), expected: [.countPushed, .markSynced(unchangedSince: false), .markPending]),
        Case(what: "a save whose row was deleted while in flight sends the deletion against the saved version",
             situation: answer(.saved, unchangedSince: false, exists: false),
             expected: [.countPushed, .releaseHeldVersion, .deleteAgainstSavedVersion]),
        Case(what: "a deletion saved is done with", situation: answer(.saved, .delete, exists: false),
             expected: [.countPushed, .dropPendingChange, .forgetDeletion]),
        Case(what: "a deletion saved after the record came back keeps the new change waiting",
             situation: answer(.saved, .delete, unchangedSince: false), expected: [.countPushed, .forgetDeletion]),
        Case(what: "a refusal holding just what was sent counts as saved", situation: answer(.refused(serverHoldsSent: true)),
             expected: [.countPushed, .markSynced(unchangedSince: true), .dropPendingChange]),
        Case(what: "a refusal with another version applies it as pulled", situation: answer(.refused(serverHoldsSent: false)),
             expected: [.applyServerRecord(resent: false)]),
        Case(what: "a refused save sent before moves the merge's base on to what it sent",
             situation: answer(.refused(serverHoldsSent: false), sentBefore: true), expected: [.applyServerRecord(resent: true)]),
        Case(what: "a refused deletion sent before is applied as any refusal",
             situation: answer(.refused(serverHoldsSent: false), .delete, sentBefore: true), expected: [.applyServerRecord(resent: false)]),
        Case(what: "a refusal without the server's record changes nothing", situation: answer(.refusedWithoutRecord), expected: []),
        Case(what: "an error counts a failed attempt", situation: answer(.error), expected: [.recordFailure]),
        Case(what: "an error leaves a staged version alone", situation: answer(.error, staging: true), expected: [.recordFailure]),
        Case(what: "a save drops a staged older version first", situation: answer(.saved, staging: true),
             expected: [.dropStagedVersion, .countPushed, .markSynced(unchangedSince: true), .dropPendingChange]),
    ]

    @Test(arguments: table)
    func plans(_ row: Case) {
        #expect(AnswerStep.plan(row.situation) == row.expected)
    }

    @Test("a change is dropped from the outbox only when it was saved and nothing changed since")
    func outboxInvariant() {
        let answers: [AnswerStep.Answer] = [.saved, .refused(serverHoldsSent: true), .refused(serverHoldsSent: false), .refusedWithoutRecord, .error]
        for answer in answers {
            for operation in [RecordChange.Operation.save, .delete] {
                for unchanged in [false, true] {
                    for exists in [false, true] {
                        for staging in [false, true] {
                            let steps = AnswerStep.plan(Self.answer(answer, operation, unchangedSince: unchanged, exists: exists, staging: staging))
                            if steps.contains(.dropPendingChange) {
                                #expect(unchanged && steps.contains(.countPushed))
                            }
                            #expect(steps.contains(.countPushed) == (answer == .saved || answer == .refused(serverHoldsSent: true)))
                        }
                    }
                }
            }
        }
    }
}
