import Crypto
import Foundation
import GRDB
import Testing
@testable import NoteTakerKit

/// Ids derived from names and contents (docs/encryption.md §4): plain for a store without an
/// encrypted account, keyed by the account's id key once a store starts with one, its tags
/// renamed with their links, and back to plain for an account without encryption.
@Suite("Derived ids")
struct DerivedIdentityTests {
    let store: NoteStore
    let identity = KeyedIdentity(idKey: SymmetricKey(data: Data(repeating: 7, count: 32)))
    let server = URL(string: "https://notes.example.com")!

    init() throws {
        store = try NoteStore.inMemory()
    }

    func outboxTagIds() throws -> Set<String> {
        try store.read { db in Set(try String.fetchAll(db, sql: "SELECT recordId FROM outbox WHERE recordType = 'tag'")) }
    }

    @Test("a store starting with an encrypted account gives its tags the keyed ids, links and all")
    func tagsTakeTheKeyedIds() throws {
        let note = try store.make("Plan", tags: ["Work", "Medical"])
        #expect(try store.tags().map(\.id) == [Tag.id(forName: "Medical"), Tag.id(forName: "Work")])
        try store.setSyncAccount(serverURL: server, username: "ada", allowInsecure: false, identity: identity)
        let keyed = [identity.id(kind: "tag", text: "medical"), identity.id(kind: "tag", text: "work")]
        #expect(try store.tags().map(\.id) == keyed)
        #expect(try store.note(id: note.id).tags == ["Medical", "Work"])
        #expect(try store.tags().map(\.noteCount) == [1, 1])
        #expect(try outboxTagIds() == Set(keyed.map(\.key)), "the keyed ids go up, and only they")
        // A tag made afterwards, and after logging out, has its keyed id at once.
        try store.make("Later", tags: ["Travel"])
        try store.clearSyncAccount()
        try store.make("Later still", tags: ["Café"])
        let ids = Dictionary(uniqueKeysWithValues: try store.tags().map { ($0.tag.name, $0.id) })
        #expect(ids["Travel"] == identity.id(kind: "tag", text: "travel"))
        #expect(ids["Café"] == identity.id(kind: "tag", text: Tag.normalizedName("Café")))
        #expect(ids["Café"] != Tag.id(forName: "Café"))
    }

    @Test("an account without encryption takes the plain ids back")
    func anUnencryptedAccountTakesThePlainIds() throws {
        try store.make("Plan", tags: ["Work"])
        try store.setSyncAccount(serverURL: server, username: "ada", allowInsecure: false, identity: identity)
        try store.clearSyncAccount()
        try store.setSyncAccount(serverURL: server, username: "bob", allowInsecure: false)
        #expect(try store.tags().map(\.id) == [Tag.id(forName: "Work")])
        #expect(try store.derivedIdentity().tagID("work") == Tag.id(forName: "Work"))
    }

    @Test("logging in again to the same account renames nothing")
    func theSameAccountKeepsItsIds() throws {
        try store.make("Plan", tags: ["Work"])
        try store.setSyncAccount(serverURL: server, username: "ada", allowInsecure: false, identity: identity)
        let before = try store.tags().map(\.id)
        try store.setSyncAccount(serverURL: server, username: "ada", allowInsecure: false, identity: identity)
        #expect(try store.tags().map(\.id) == before)
    }

    @Test("an import's ids: plain as they always were (so an import again finds its notes), keyed under an encrypted account")
    func importedIds() throws {
        let name = "markdown:Notes/Plan.md:0123abcd"
        var digest = Array(SHA256.hash(data: Data(name.utf8)).prefix(16))
        digest[6] = (digest[6] & 0x0F) | 0x80
        digest[8] = (digest[8] & 0x3F) | 0x80
        #expect(try store.derivedIdentity().importedID(name) == UUID(uuid: (
            digest[0], digest[1], digest[2], digest[3], digest[4], digest[5], digest[6], digest[7],
            digest[8], digest[9], digest[10], digest[11], digest[12], digest[13], digest[14], digest[15])))
        try store.setSyncAccount(serverURL: server, username: "ada", allowInsecure: false, identity: identity)
        #expect(try store.derivedIdentity().importedID(name) == identity.id(kind: "import", text: name))
    }
}
