@testable import NoteTakerModel
import Testing

/// How a record from the server is applied, as a table: no store, no server.
@Suite("Applying a record from the server")
struct ApplyDecisionTests {
    typealias Situation = ApplyDecision.Situation

    /// One row of the table: what the server sent, what this device holds, what happens.
    struct Case: CustomTestStringConvertible, Sendable {
        var what: String
        var serverDeleted = false
        var exists = true
        var synced: Synced = .atServerTag
        var pending: ApplyDecision.Pending?
        /// The server sent the record refusing this device's deletion (else it was pulled, or
        /// it refused a save sent before the deletion).
        var refusedDeletion = false
        var recordType = RecordType.note
        /// An attachment's note is not here.
        var noteMissing = false
        /// The server refused this device's creation, sent again and unchanged since.
        var resentCreation = false
        var serverTag = "t2"
        /// The tombstone is of a deletion sent again to heal a restored server, which had this tag before the restore.
        var deletionSentAgainFrom: String?
        var expected: ApplyDecision

        enum Synced: Sendable { case atServerTag, atOlderTag, never }

        var situation: Situation {
            let localTag: String? = switch synced {
            case .atServerTag: "t2"
            case .atOlderTag: "t1"
            case .never: nil
            }
            var situation = Situation(recordType: recordType, serverDeleted: serverDeleted, serverTag: serverTag, exists: exists, localTag: localTag,
                                      pending: pending, refusedDeletion: refusedDeletion, noteMissing: noteMissing)
            situation.resentCreation = resentCreation
            situation.deletionSentAgainFrom = deletionSentAgainFrom
            return situation
        }

        var testDescription: String { what }
    }

    static let table: [Case] = [
        Case(what: "a record this device has never seen is taken, as a new row", exists: false, synced: .never, expected: .take(new: true)),
        Case(what: "a newer version of an unchanged row replaces it", synced: .atOlderTag, expected: .take(new: false)),
        Case(what: "the version this device already has changes nothing", expected: .keep),
        Case(what: "a tombstone for an unchanged row deletes it", serverDeleted: true, synced: .atOlderTag, expected: .delete),
        Case(what: "a tombstone for a row never here deletes nothing but is acknowledged", serverDeleted: true, exists: false,
             synced: .never, expected: .delete),
        Case(what: "deleted on both sides: the local deletion is dropped", serverDeleted: true, exists: false,
             pending: .delete(deletedTag: "t1"), expected: .bothDeleted),
        Case(what: "deleted here, changed elsewhere since, pulled: the deletion goes up, for the server to judge the change",
             exists: false, pending: .delete(deletedTag: "t1"), expected: .keep),
        Case(what: "deleted here, refused by the server because an edit came since: the edit wins", exists: false,
             pending: .delete(deletedTag: "t1"), refusedDeletion: true, expected: .editBeatsLocalDeletion),
        Case(what: "deleted here, never synced, exists on the server: the edit wins", exists: false, synced: .never,
             pending: .delete(deletedTag: nil), refusedDeletion: true, expected: .editBeatsLocalDeletion),
        Case(what: "deleted here, never synced, the server refusing the creation sent before: the deletion goes up",
             exists: false, synced: .never, pending: .delete(deletedTag: nil), expected: .keep),
        Case(what: "deleted here, the server still at the deleted version: the deletion goes up", exists: false,
             pending: .delete(deletedTag: "t2"), expected: .keep),
        Case(what: "deleted elsewhere, edited here: the edit wins", serverDeleted: true, synced: .atOlderTag,
             pending: .save(derived: false), expected: .editBeatsServerDeletion),
        Case(what: "deleted elsewhere, changed here only as a consequence: the deletion wins", serverDeleted: true,
             synced: .atOlderTag, pending: .save(derived: true), expected: .deleteOverDerivedChange),
        Case(what: "deleted elsewhere after this device's creation made it, sent again unchanged: the deletion wins", serverDeleted: true,
             synced: .never, pending: .save(derived: false), resentCreation: true, expected: .deleteOverDerivedChange),
        Case(what: "deleted elsewhere after the version a heal sends again unchanged: the deletion wins", serverDeleted: true,
             synced: .never, pending: .save(derived: false, sentAgainFrom: "5"), serverTag: "7", expected: .deleteOverDerivedChange),
        Case(what: "deleted elsewhere before the version a heal sends again (made again since): the version wins", serverDeleted: true,
             synced: .never, pending: .save(derived: false, sentAgainFrom: "9"), serverTag: "7", expected: .editBeatsServerDeletion),
        Case(what: "a deletion sent again by a heal, from before the version a heal sends again in the history lost: the version wins",
             serverDeleted: true, synced: .never, pending: .save(derived: false, sentAgainFrom: "9"), serverTag: "12",
             deletionSentAgainFrom: "8", expected: .editBeatsServerDeletion),
        Case(what: "a deletion sent again by a heal, after the version a heal sends again in the history lost: the deletion wins",
             serverDeleted: true, synced: .never, pending: .save(derived: false, sentAgainFrom: "9"), serverTag: "7",
             deletionSentAgainFrom: "10", expected: .deleteOverDerivedChange),
        Case(what: "deleted elsewhere, created here and changed since: the change wins", serverDeleted: true,
             synced: .never, pending: .save(derived: false), expected: .editBeatsServerDeletion),
        Case(what: "an attachment whose note is not here waits for it", exists: false, synced: .never, recordType: .attachment,
             noteMissing: true, expected: .waitForNote),
        Case(what: "an attachment whose note is here is taken", exists: false, synced: .never, recordType: .attachment,
             expected: .take(new: true)),
        Case(what: "deleted elsewhere, the row gone here though a save waited: the save is dropped", serverDeleted: true, exists: false,
             synced: .atOlderTag, pending: .save(derived: false), expected: .deletedEverywhere),
        Case(what: "edited on both sides: they merge", synced: .atOlderTag, pending: .save(derived: false), expected: .merge(derivedYields: false)),
        Case(what: "a change made here only as a consequence yields where both changed", synced: .atOlderTag,
             pending: .save(derived: true), expected: .merge(derivedYields: true)),
        Case(what: "edited here after syncing the server's current version: the edit goes up, nothing is applied",
             pending: .save(derived: false), expected: .keep),
        Case(what: "a save waits for a row that is gone here: the server's record is taken", exists: false, synced: .atOlderTag,
             pending: .save(derived: false), expected: .takeInsteadOfMissingRow),
    ]

    @Test(arguments: table)
    func decides(_ row: Case) {
        #expect(ApplyDecision.decide(row.situation) == row.expected)
    }

    @Test("every situation has a decision, and a tombstone never takes the server's fields")
    func everySituation() {
        let pendings: [ApplyDecision.Pending?] = [nil, .save(derived: false), .save(derived: true), .delete(deletedTag: nil),
                                                   .delete(deletedTag: "t1"), .delete(deletedTag: "t2")]
        for serverDeleted in [false, true] {
            for exists in [false, true] {
                for localTag in [nil, "t1", "t2"] as [String?] {
                    for (pending, refusedDeletion) in pendings.flatMap({ pending in [(pending, false), (pending, true)] }) {
                        let decision = ApplyDecision.decide(Situation(
                            serverDeleted: serverDeleted, serverTag: "t2", exists: exists, localTag: localTag, pending: pending,
                            refusedDeletion: refusedDeletion))
                        if serverDeleted {
                            #expect(![.take(new: true), .take(new: false), .takeInsteadOfMissingRow, .editBeatsLocalDeletion,
                                      .waitForNote].contains(decision))
                        }
                        if pending != nil {
                            // A change waiting here is never overwritten by a plain take.
                            #expect(decision != .take(new: true) && decision != .take(new: false))
                        }
                        if !refusedDeletion {
                            // A deletion made here is given up only on the server's word.
                            #expect(decision != .editBeatsLocalDeletion)
                        }
                    }
                }
            }
        }
    }
}
