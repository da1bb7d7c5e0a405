import Foundation
import NoteTakerKit
import Testing
@testable import NoteTakerInterchange

/// Links between Evernote notes, as the apps write them: the legacy desktop apps'
/// `evernote:///view/…` ("Copy internal link"), Evernote 10's `https://www.evernote.com/shard/…/nl/…`,
/// and shared-note addresses. An export carries no note ids, so the link text (the target's
/// title, as Evernote writes it) is what finds the target.
@Suite struct EvernoteLinkTests {
    let directory = TemporaryDirectory()

    static let guid = "c929f3d3-b29b-4a8a-94a2-9ca6a437bbe8"

    @Test("links to notes of the same file become links by id, before or after their target; others stay as written")
    func linksInOneFile() throws {
        let enex = EvernoteTests.enex([
            EvernoteTenTests.note("Index", content: """
                <div>See <a href="evernote:///view/1523219/s13/\(Self.guid)/\(Self.guid)/" style="color:#69aa35;">Soup recipes</a> \
                and <a href="https://www.evernote.com/shard/s13/nl/1523219/94858aaf-6f0f-423f-bae2-42ceb6a020e6?title=Garden" rel="noopener noreferrer" rev="en_rl_none">garden  plan</a>.</div>\
                <div><a href="https://share.evernote.com/note/7d6404ff-705a-4581-85a8-31e0e1d6bb19">Someone else's note</a> \
                and <a href="https://example.com/evernote">a web page</a></div>
                """, created: "20240101T090000Z"),
            EvernoteTenTests.note("Soup recipes", content: "<div>Back to <a href=\"evernote:///view/1523219/s13/0a/0a/\">Index</a></div>",
                                  created: "20240102T090000Z"),
            EvernoteTenTests.note("Garden Plan", content: "<div>Tomatoes</div>", created: "20240103T090000Z"),
        ])
        let store = try directory.store()
        let report = try Importer(store: store).importItems(at: try directory.write(enex, to: "Kitchen.enex"))
        #expect(report.imported == 3)
        #expect(report.linksKept == 3)
        #expect(report.linksUnresolved == 1)
        #expect(report.warnings.map(\.reason).contains { $0.contains("Someone else's note") && $0.contains("kept as written") })
        let notes = try directory.notes(in: store)
        let index = try #require(notes["Index"]), soup = try #require(notes["Soup recipes"]), garden = try #require(notes["Garden Plan"])
        #expect(index.body.contains("[Soup recipes](note:\(soup.id.key))"))
        #expect(index.body.contains("(note:\(garden.id.key))"), "a title matches whatever its case and spacing: \(index.body)")
        #expect(index.body.contains("(https://share.evernote.com/note/7d6404ff-705a-4581-85a8-31e0e1d6bb19)"))
        #expect(index.body.contains("(https://example.com/evernote)"))
        #expect(soup.body.contains("[Index](note:\(index.id.key))"))
        #expect(try store.backlinks(to: index.id).map(\.title) == ["Soup recipes"])
        #expect(index.modifiedAt.timeIntervalSince1970 == 1_704_528_000, "a note waiting for its links keeps Evernote's dates")

        // The same file again adds nothing, links and all.
        let again = try Importer(store: store).importItems(at: try directory.write(enex, to: "Kitchen.enex"))
        #expect(again.alreadyPresent == 3 && again.imported == 0)
    }

    @Test("a link to a note of a notebook imported earlier finds it")
    func linksAcrossNotebooks() throws {
        let store = try directory.store()
        _ = try Importer(store: store).importItems(at: try directory.write(EvernoteTests.enex([
            EvernoteTenTests.note("Packing list", content: "<div>Socks</div>"),
        ]), to: "Travel.enex"))
        let report = try Importer(store: store).importItems(at: try directory.write(EvernoteTests.enex([
            EvernoteTenTests.note("Trip to Lisbon", content: "<div><a href=\"evernote:///view/1/s1/\(Self.guid)/\(Self.guid)/\">Packing list</a></div>"),
        ]), to: "Trips.enex"))
        #expect(report.linksKept == 1 && report.linksUnresolved == 0)
        let notes = try directory.notes(in: store)
        #expect(notes["Trip to Lisbon"]?.body.contains("(note:\(try #require(notes["Packing list"]).id.key))") == true)
    }
}

extension TemporaryDirectory {
    /// Every note of a store, by title.
    func notes(in store: NoteStore) throws -> [String: Note] {
        Dictionary(try store.notes().map { ($0.title, $0) }, uniquingKeysWith: { first, _ in first })
    }
}
