import Foundation
import GRDB
import NoteTakerSyncProtocol
import Testing
@testable import NoteTakerKit

/// Held records are staged again when this app reads records by newer rules, except sealed
/// ones: they were held for not opening, and staged as they are they would reach the store
/// unopened.
@Suite struct QuarantineRestageTests {
    @Test func aSealedRecordStaysHeldWhenHeldRecordsAreTriedAgain() throws {
        let store = try NoteStore.inMemory()
        let plain: RecordFields = ["title": .string("Held"), "body": .string("")]
        let sealed: RecordFields = [
            RecordFields.sealedMarker: .number(1), "$zone": .string("private"), "$key": .number(1),
            "$salt": .string(String(repeating: "A", count: 43)), "$sealed": .string(String(repeating: "B", count: 30)),
        ]
        let (plainId, sealedId) = (UUID().key, UUID().key)
        try store.write { db in
            for (id, fields) in [(plainId, plain), (sealedId, sealed)] {
                try db.execute(sql: """
                    INSERT INTO sync_quarantine (recordType, recordId, changeTag, deleted, fields, reason, readerVersion, heldAt)
                    VALUES ('note', ?, '7', 0, ?, 'held by older rules', 0, 0)
                    """, arguments: [id, fields.wireJSON])
            }
            #expect(try SyncQuarantine.restage(db) == 1)
            #expect(try String.fetchAll(db, sql: "SELECT recordId FROM sync_inbox") == [plainId])
            #expect(try String.fetchAll(db, sql: "SELECT recordId FROM sync_quarantine") == [sealedId])
        }
    }
}
