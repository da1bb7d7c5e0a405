import Foundation
import NoteTakerSyncProtocol
import Testing

/// The typed records: every field written under its one name, read back the same, and a
/// malformed field refused by its name.
@Suite struct RecordCodecTests {
    static let noteId = UUID().key
    static let folderId = UUID().key

    static let note = NoteRecord(
        title: "Plan", body: "# Plan\n- [ ] call Ada", createdAt: 1_700_000_000, modifiedAt: 1_700_000_100.5, isPinned: true,
        folderId: folderId, trashedAt: nil, tagIds: [UUID().key, UUID().key], editedOn: "Laptop")

    @Test func everyRecordReadsBackAsWritten() throws {
        #expect(try NoteRecord(fields: Self.note.fields) == Self.note)
        let folder = FolderRecord(name: "Work", icon: "📁", sortOrder: -3, createdAt: 0, modifiedAt: 12, parentId: nil)
        #expect(try FolderRecord(fields: folder.fields) == folder)
        let tag = TagRecord(name: "Errands", createdAt: -1_000)
        #expect(try TagRecord(fields: tag.fields) == tag)
        let converted = TagRecord(name: "Errands", createdAt: -1_000, replaces: "17", convertedFrom: "12")
        #expect(try TagRecord(fields: converted.fields) == converted)
        let attachment = AttachmentRecord(
            noteId: Self.noteId, kind: "image", fileName: "photo.jpg", fileSize: 123_456, contentHash: String(repeating: "ab", count: 32),
            createdAt: 1_700_000_000)
        #expect(try AttachmentRecord(fields: attachment.fields) == attachment)
    }

    /// A push writes each note straight to JSON; the text must be the canonical one the
    /// fields would give, byte for byte, or the server's copy and this device's base differ.
    @Test func aNoteWritesTheCanonicalTextOfItsFields() {
        var generator = SystemRandomNumberGenerator()
        let texts = ["", "Plan", "# Plan\n- [ ] call \"Ada\"\t\\ done", "é😀 \u{0}\u{1F}\u{7F} </script>", String(repeating: "long ", count: 500)]
        for _ in 0..<500 {
            let note = NoteRecord(
                title: texts.randomElement(using: &generator) ?? "", body: texts.randomElement(using: &generator) ?? "",
                createdAt: Double.random(in: -1e10...1e10, using: &generator), modifiedAt: [0, 1_700_000_100.5, 1_732_500_000.123456].randomElement(using: &generator) ?? 0,
                isPinned: Bool.random(using: &generator), folderId: Bool.random(using: &generator) ? UUID().key : nil,
                trashedAt: Bool.random(using: &generator) ? Double.random(in: 0...2e9, using: &generator) : nil,
                tagIds: (0..<Int.random(in: 0...3, using: &generator)).map { _ in UUID().key },
                editedOn: Bool.random(using: &generator) ? texts.randomElement(using: &generator) : nil)
            #expect(note.wireJSON == note.fields.wireJSON)
        }
    }

    @Test func everyFieldIsWrittenUnderItsNameNullWhenEmpty() {
        let empty = NoteRecord(title: "", body: "", createdAt: 0, modifiedAt: 0, isPinned: false, folderId: nil, trashedAt: nil,
                               tagIds: [], editedOn: nil)
        #expect(Set(empty.fields.keys) == Set(NoteRecord.Field.allCases.map(\.rawValue)))
        #expect(empty.fields["folderId"] == .null && empty.fields["trashedAt"] == .null && empty.fields["editedOn"] == .null)
        let folder = FolderRecord(name: "A", icon: nil, sortOrder: 0, createdAt: 0, modifiedAt: 0, parentId: nil)
        #expect(Set(folder.fields.keys) == Set(FolderRecord.Field.allCases.map(\.rawValue)))
    }

    @Test func idsAreReadInTheirCanonicalSpelling() throws {
        var fields = Self.note.fields
        fields["folderId"] = .string(Self.folderId.uppercased())
        #expect(try NoteRecord(fields: fields).folderId == Self.folderId)
    }

    @Test func whatOlderPeersLeaveOutReadsAsEmpty() throws {
        var fields = Self.note.fields
        for name in ["isPinned", "folderId", "trashedAt", "tagIds", "editedOn"] { fields[name] = nil }
        let note = try NoteRecord(fields: fields)
        #expect(!note.isPinned && note.folderId == nil && note.trashedAt == nil && note.tagIds.isEmpty && note.editedOn == nil)
        // A device name is only shown: a malformed one reads as none instead of refusing the note.
        fields["editedOn"] = .number(3)
        #expect(try NoteRecord(fields: fields).editedOn == nil)
    }

    @Test(arguments: [
        ("title", FieldValue.number(1)), ("body", .null), ("createdAt", .string("yesterday")),
        ("modifiedAt", .number(1e300)), ("isPinned", .string("yes")), ("folderId", .string("not-an-id")),
        ("trashedAt", .number(-1e20)), ("tagIds", .array([.string("x")])),
        ("tagIds", .array(Array(repeating: .string(UUID().key), count: RecordFieldReader.maximumIds + 1))),
    ])
    func aMalformedNoteFieldIsNamed(_ name: String, _ value: FieldValue) {
        var fields = Self.note.fields
        fields[name] = value
        #expect(throws: RecordFieldError(field: name)) { try NoteRecord(fields: fields) }
    }

    @Test func otherRecordsNameTheirMalformedFields() {
        let attachment = AttachmentRecord(noteId: Self.noteId, kind: "file", fileName: "a", fileSize: 1, contentHash: "h", createdAt: 0)
        var fields = attachment.fields
        fields["fileSize"] = .number(-1)
        #expect(throws: RecordFieldError(field: "fileSize")) { try AttachmentRecord(fields: fields) }
        fields = attachment.fields
        fields["fileSize"] = .number(1e300)
        #expect(throws: RecordFieldError(field: "fileSize")) { try AttachmentRecord(fields: fields) }
        let folder = FolderRecord(name: "A", icon: String(repeating: "x", count: 65), sortOrder: 0, createdAt: 0, modifiedAt: 0, parentId: nil)
        #expect(throws: RecordFieldError(field: "icon")) { try FolderRecord(fields: folder.fields, maximumIconBytes: 64) }
        #expect(throws: RecordFieldError(field: "name")) { try TagRecord(fields: ["createdAt": .number(0)]) }
    }
}
