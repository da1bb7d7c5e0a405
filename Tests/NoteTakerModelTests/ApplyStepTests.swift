@testable import NoteTakerModel
import Testing

/// What applying a record from the server does, step by step, as a table: no store, no server.
@Suite("The steps that apply a record from the server")
struct ApplyStepTests {
    typealias Situation = ApplyDecision.Situation

    struct Case: CustomTestStringConvertible, Sendable {
        var what: String
        var situation: Situation
        var expected: [ApplyStep]
        var testDescription: String { what }
    }

    static func pulled(
        _ type: RecordType = .note, deleted: Bool = false, exists: Bool = true, localTag: String? = "t1",
        pending: ApplyDecision.Pending? = nil, refusedDeletion: Bool = false, noteMissing: Bool = false
    ) -> Situation {
        Situation(recordType: type, serverDeleted: deleted, serverTag: "t2", exists: exists, localTag: localTag, pending: pending,
                  refusedDeletion: refusedDeletion, noteMissing: noteMissing)
    }

    static let table: [Case] = [
        Case(what: "a note never seen arrives in sync, indexed with the others", situation: pulled(exists: false, localTag: nil),
             expected: [.insertArriving]),
        Case(what: "a folder never seen is written and marked synced", situation: pulled(.folder, exists: false, localTag: nil),
             expected: [.takeServerVersion]),
        Case(what: "an echo of the version held does nothing", situation: pulled(localTag: "t2"), expected: []),
        Case(what: "a tombstone releases what waited for the record, deletes it and keeps the tombstone",
             situation: pulled(deleted: true), expected: [.releaseWaitersOfDeleted, .deleteRow, .forgetDeletion(keepingTombstone: true)]),
        Case(what: "a tombstone of a record never here deletes no row", situation: pulled(deleted: true, exists: false, localTag: nil),
             expected: [.releaseWaitersOfDeleted, .forgetDeletion(keepingTombstone: true)]),
        Case(what: "a tombstone drops a change made here only as a consequence, then deletes",
             situation: pulled(.folder, deleted: true, pending: .save(derived: true)),
             expected: [.releaseWaitersOfDeleted, .dropPendingChange, .deleteRow, .forgetDeletion(keepingTombstone: true)]),
        Case(what: "a note edited here and deleted elsewhere goes up again with its attachments",
             situation: pulled(deleted: true, pending: .save(derived: false)),
             expected: [.releaseWaitersOfDeleted, .reopenAgainstTombstone, .resendAttachments, .countMerged]),
        Case(what: "a folder edited here and deleted elsewhere goes up again alone",
             situation: pulled(.folder, deleted: true, pending: .save(derived: false)),
             expected: [.releaseWaitersOfDeleted, .reopenAgainstTombstone, .countMerged]),
        Case(what: "deleted on both sides: the deletion here is done with",
             situation: pulled(deleted: true, exists: false, pending: .delete(deletedTag: "t1")),
             expected: [.releaseWaitersOfDeleted, .dropPendingChange, .forgetDeletion(keepingTombstone: true)]),
        Case(what: "a deletion refused for an edit since: the edit comes back",
             situation: pulled(exists: false, pending: .delete(deletedTag: "t1"), refusedDeletion: true),
             expected: [.dropPendingChange, .forgetDeletion(keepingTombstone: false), .takeServerVersion, .countMerged]),
        Case(what: "changed on both sides: merged and counted", situation: pulled(pending: .save(derived: false)),
             expected: [.merge(derivedYields: false), .countMerged]),
        Case(what: "an attachment whose note is missing waits, and nothing is written",
             situation: pulled(.attachment, exists: false, localTag: nil, noteMissing: true), expected: [.waitForNote]),
        Case(what: "a save waiting for a row gone here gives way to the server's record",
             situation: pulled(exists: false, pending: .save(derived: false)), expected: [.dropPendingChange, .takeServerVersion]),
    ]

    @Test(arguments: table)
    func plans(_ row: Case) {
        #expect(ApplyStep.plan(row.situation) == row.expected)
    }

    @Test("a tombstone never writes the server's fields, and a change made here is dropped only for a deletion or the server's word")
    func invariants() {
        let pendings: [ApplyDecision.Pending?] = [nil, .save(derived: false), .save(derived: true), .delete(deletedTag: nil),
                                                   .delete(deletedTag: "t1"), .delete(deletedTag: "t2")]
        for type in RecordType.allCases {
            for deleted in [false, true] {
                for exists in [false, true] {
                    for localTag in [nil, "t1", "t2"] as [String?] {
                        for pending in pendings {
                            for refusedDeletion in [false, true] {
                                let steps = ApplyStep.plan(Self.pulled(type, deleted: deleted, exists: exists, localTag: localTag,
                                                                  pending: pending, refusedDeletion: refusedDeletion))
                                if deleted {
                                    #expect(steps.first == .releaseWaitersOfDeleted)
                                    #expect(!steps.contains(.takeServerVersion) && !steps.contains(.insertArriving))
                                }
                                if !exists { #expect(!steps.contains(.deleteRow) && !steps.contains(.reopenAgainstTombstone)) }
                                if steps.contains(.insertArriving) { #expect(steps == [.insertArriving] && type == .note) }
                                if pending == .save(derived: false), steps.contains(.dropPendingChange) {
                                    // An edit made here gives way only to a row that is gone here.
                                    #expect(!exists)
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
