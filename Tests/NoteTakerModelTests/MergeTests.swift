import Foundation
@testable import NoteTakerModel
import NoteTakerSyncProtocol
import Testing

@Suite("Text and record merge")
struct MergeTests {
    @Test("edits to different lines merge; the same or touching lines do not")
    func textMerge() {
        let base = "a\nb\nc\nd\ne"
        #expect(TextMerge.merge(base: base, local: "A\nb\nc\nd\ne", server: "a\nb\nc\nd\nE") == "A\nb\nc\nd\nE")
        #expect(TextMerge.merge(base: base, local: "a\nb\nc\nd\ne\nf", server: "z\na\nb\nc\nd\ne") == "z\na\nb\nc\nd\ne\nf")
        #expect(TextMerge.merge(base: base, local: "a\nX\nc\nd\ne", server: "a\nY\nc\nd\ne") == nil)
        #expect(TextMerge.merge(base: base, local: "a\nX\nc\nd\ne", server: "a\nb\nY\nd\ne") == nil, "adjacent lines")
        #expect(TextMerge.merge(base: base, local: "a\nb\nnew\nc\nd\ne", server: "a\nb\nother\nc\nd\ne") == nil, "insertions at one place")
    }

    @Test("the same edit on both sides is taken once: merging never duplicates text")
    func noDuplication() {
        let base = "one\ntwo\nthree\nfour"
        let both = "one\ntwo and more\nthree\nfour"
        #expect(TextMerge.merge(base: base, local: both, server: both) == both)
        #expect(TextMerge.merge(base: base, local: "one\ntwo and more\nthree\nfour\nfive", server: both) == "one\ntwo and more\nthree\nfour\nfive")
        #expect(TextMerge.merge(base: base, local: base, server: both) == both)
        #expect(TextMerge.merge(base: base, local: both, server: base) == both)
    }

    @Test("deletions on one side and edits elsewhere on the other merge")
    func deletions() {
        let base = "1\n2\n3\n4\n5\n6"
        #expect(TextMerge.merge(base: base, local: "1\n3\n4\n5\n6", server: "1\n2\n3\n4\n5\nsix") == "1\n3\n4\n5\nsix")
    }

    /// Seeds 7852 and 8438 of the simulation: a change sent again after its answer was lost
    /// (and forgotten) met its own first write, changed elsewhere since.
    @Test("a change that may have reached the server before moves the base on where the server holds what it sent", arguments: [
        // (property, base, sent, server, expected base)
        ("a property the server holds as sent", ["trashedAt": FieldValue.null], ["trashedAt": .number(5)], ["trashedAt": .number(5)], ["trashedAt": .number(5)]),
        ("a property the server holds otherwise", ["title": .string("a")], ["title": .string("b")], ["title": .string("c")], ["title": .string("a")]),
        ("a property not sent changed", ["title": .string("a")], ["title": .string("a")], ["title": .string("c")], ["title": .string("a")]),
        ("a tag added, held", ["tagIds": .array([.string("t1")])], ["tagIds": .array([.string("t1"), .string("t2")])],
         ["tagIds": .array([.string("t2"), .string("t3")])], ["tagIds": .array([.string("t1"), .string("t2")])]),
        ("a tag taken off, gone", ["tagIds": .array([.string("t1"), .string("t2")])], ["tagIds": .array([.string("t2")])],
         ["tagIds": .array([.string("t2"), .string("t3")])], ["tagIds": .array([.string("t2")])]),
        ("a tag taken off, still held", ["tagIds": .array([.string("t1")])], ["tagIds": .array([])],
         ["tagIds": .array([.string("t1")])], ["tagIds": .array([.string("t1")])]),
    ] as [(String, RecordFields, RecordFields, RecordFields, RecordFields)])
    func baseAfterSending(_ name: String, base: RecordFields, sent: RecordFields, server: RecordFields, expected: RecordFields) {
        #expect(RecordMerge.base(base, afterSending: sent, server: server) == expected, "\(name)")
    }

    @Test("merged from the moved base, what changed here since sending wins, and the server's later changes stay")
    func mergeAfterSending() {
        let base: RecordFields = ["title": .string("Plan"), "trashedAt": .null, "tagIds": .array([.string("t1")])]
        let sent: RecordFields = ["title": .string("Plan"), "trashedAt": .number(5), "tagIds": .array([.string("t1")])]
        // Restored from the trash here since; retitled and tagged on another device.
        let local: RecordFields = ["title": .string("Plan"), "trashedAt": .null, "tagIds": .array([.string("t1")])]
        let server: RecordFields = ["title": .string("Plan B"), "trashedAt": .number(5), "tagIds": .array([.string("t1"), .string("t2")])]
        let moved = RecordMerge.base(base, afterSending: sent, server: server)
        let merged = RecordMerge.merge(recordType: "note", base: moved, local: local, server: server, policy: .localWins).fields
        #expect(merged == ["title": .string("Plan B"), "trashedAt": .null, "tagIds": .array([.string("t1"), .string("t2")])])
        let fromOldBase = RecordMerge.merge(recordType: "note", base: base, local: local, server: server, policy: .localWins).fields
        #expect(fromOldBase["trashedAt"] == .number(5), "from the old base, the restore here reads as no change")
    }

    @Test("a diff too large to compute safely is not guessed")
    func bounded() {
        let base = (0..<3000).map(String.init).joined(separator: "\n")
        let local = (0..<3000).map { "l\($0)" }.joined(separator: "\n")
        let server = (0..<3000).map { "s\($0)" }.joined(separator: "\n")
        #expect(TextMerge.merge(base: base, local: local, server: server) == nil)
    }

    @Test("properties: one side's change is taken; both changed, the policy decides; tag sets merge; later date wins")
    func records() {
        let base: RecordFields = ["title": .string("T"), "isPinned": .bool(false), "tagIds": .array([.string("a"), .string("b")]),
                                  "modifiedAt": .number(1), "body": .string("x")]
        var local = base
        local["title"] = .string("local title")
        local["tagIds"] = .array([.string("b")])
        local["modifiedAt"] = .number(5)
        var server = base
        server["title"] = .string("server title")
        server["isPinned"] = .bool(true)
        server["tagIds"] = .array([.string("a"), .string("b"), .string("c")])
        server["modifiedAt"] = .number(3)

        let localWins = RecordMerge.merge(recordType: "note", base: base, local: local, server: server, policy: .localWins)
        #expect(localWins.fields["title"] == .string("local title"))
        #expect(localWins.fields["isPinned"] == .bool(true))
        #expect(localWins.fields["tagIds"] == .array([.string("b"), .string("c")]))
        #expect(localWins.fields["modifiedAt"] == .number(5))
        #expect(localWins.losingBody == nil)

        #expect(RecordMerge.merge(recordType: "note", base: base, local: local, server: server, policy: .serverWins).fields["title"] == .string("server title"))
        #expect(RecordMerge.merge(recordType: "note", base: base, local: local, server: server, policy: .lastWriterWins).fields["title"] == .string("local title"))
        let custom = RecordMerge.merge(recordType: "note", base: base, local: local, server: server, policy: .custom { conflict in
            .string("\(conflict.local.string ?? "") + \(conflict.server.string ?? "")")
        })
        #expect(custom.fields["title"] == .string("local title + server title"))
    }

    @Test("bodies that cannot merge keep the policy's winner and hand back the loser")
    func bodyConflict() {
        let base: RecordFields = ["body": .string("same line")]
        let local: RecordFields = ["body": .string("local line"), "modifiedAt": .number(1)]
        let server: RecordFields = ["body": .string("server line"), "modifiedAt": .number(2)]
        let merged = RecordMerge.merge(recordType: "note", base: base, local: local, server: server, policy: .localWins)
        #expect(merged.fields["body"] == .string("local line"))
        #expect(merged.losingBody == "server line")
        let later = RecordMerge.merge(recordType: "note", base: base, local: local, server: server, policy: .lastWriterWins)
        #expect(later.fields["body"] == .string("server line"))
        #expect(later.losingBody == "local line")
    }

    @Test("merge policies by name")
    func policyNames() {
        for name in MergePolicy.names { #expect(MergePolicy.named(name)?.name == name) }
        #expect(MergePolicy.named("whatever") == nil)
    }
}
