import Foundation
import NoteTakerServerTestSupport
import NoteTakerSyncProtocol
import Testing

/// The hand-written JSON of the sync wire against Foundation's coders: the same bytes
/// written, the same values read, and malformed text refused with a clear error.
@Suite struct WireJSONTests {
    static let sortedEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    static let scalars: [Unicode.Scalar] = ["a", "Z", " ", "/", "\"", "\\", "\u{0}", "\u{1}", "\u{8}", "\t", "\n", "\u{c}", "\r", "\u{1f}",
                                            "\u{7f}", "é", "東", "京", "\u{2028}", "😀", "\u{10FFFF}", "\u{301}"]

    static func text(_ generator: inout SeededGenerator) -> String {
        var text = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...12, using: &generator) { text.append(scalars.randomElement(using: &generator) ?? "a") }
        return String(text)
    }

    static func number(_ generator: inout SeededGenerator) -> Double {
        switch Int.random(in: 0..<6, using: &generator) {
        case 0: Double(Int.random(in: -1_000_000...1_000_000, using: &generator))
        case 1: Double.random(in: -1...1, using: &generator)
        case 2: Double.random(in: 1_600_000_000...1_900_000_000, using: &generator)
        case 3: Double(sign: .plus, exponent: Int.random(in: -1074...1023, using: &generator), significand: Double.random(in: 1..<2, using: &generator))
        case 4: [0, -0.0, 1e16, 1e21, 1e-7, 5e-324, Double.greatestFiniteMagnitude].randomElement(using: &generator) ?? 0
        default: Double(Int64.random(in: Int64.min...Int64.max, using: &generator))
        }
    }

    static func value(_ generator: inout SeededGenerator, depth: Int = 0) -> FieldValue {
        switch Int.random(in: 0..<(depth < 2 ? 5 : 4), using: &generator) {
        case 0: .null
        case 1: .bool(Bool.random(using: &generator))
        case 2: .number(number(&generator))
        case 3: .string(text(&generator))
        default: .array((0..<Int.random(in: 0...4, using: &generator)).map { _ in value(&generator, depth: depth + 1) })
        }
    }

    static func fields(_ generator: inout SeededGenerator) -> RecordFields {
        var fields: RecordFields = [:]
        for _ in 0..<Int.random(in: 0...8, using: &generator) { fields[text(&generator)] = value(&generator) }
        return fields
    }

    @Test func writesFieldsAsJSONEncoderDoes() throws {
        var generator = SeededGenerator(seed: 2026)
        for _ in 0..<3_000 {
            let fields = Self.fields(&generator)
            let expected = String(decoding: try Self.sortedEncoder.encode(fields), as: UTF8.self)
            #expect(fields.wireJSON == expected)
        }
    }

    @Test func readsWhatJSONEncoderWrote() throws {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<3_000 {
            let fields = Self.fields(&generator)
            let encoded = try JSONEncoder().encode(fields)
            let read = try RecordFields(wireJSON: encoded)
            #expect(read == fields)
            #expect(read == (try JSONDecoder().decode(RecordFields.self, from: encoded)))
        }
    }

    @Test func messagesMatchTheirCodableForm() throws {
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<200 {
            let records = (0..<Int.random(in: 0...5, using: &generator)).map { _ in
                SyncRecord(recordType: "note", recordId: UUID(), changeTag: String(Int.random(in: 1...99_999, using: &generator)),
                           deleted: Bool.random(using: &generator), fields: Self.fields(&generator))
            }
            let page = ChangesResponse(records: records, token: "server:\(records.count)", moreComing: Bool.random(using: &generator))
            #expect(String(decoding: page.wireJSON, as: UTF8.self) == String(decoding: try Self.sortedEncoder.encode(page), as: UTF8.self))
            #expect(try ChangesResponse(wireJSON: Array(JSONEncoder().encode(page))) == page)

            let changes = (0..<Int.random(in: 0...5, using: &generator)).map { _ in
                let delete = Bool.random(using: &generator)
                return RecordChange(recordType: "folder", recordId: UUID(), operation: delete ? .delete : .save,
                                    baseChangeTag: Bool.random(using: &generator) ? "12" : nil, fields: delete ? nil : Self.fields(&generator),
                                    derived: !delete && Bool.random(using: &generator))
            }
            let batch = ModifyRequest(changes: changes, deviceId: Bool.random(using: &generator) ? UUID() : nil)
            #expect(String(decoding: batch.wireJSON, as: UTF8.self) == String(decoding: try Self.sortedEncoder.encode(batch), as: UTF8.self))
            #expect(try ModifyRequest(wireJSON: Array(JSONEncoder().encode(batch))) == batch)
            #expect(try JSONDecoder().decode(ModifyRequest.self, from: Data(batch.wireJSON)) == batch)
            // A batch sent with its fields already written is the same document.
            #expect(batch.wireJSON(fieldsJSON: batch.changes.map { $0.fields?.wireJSON }) == batch.wireJSON)

            let answer = ModifyResponse(results: records.map { record in
                switch Int.random(in: 0...2, using: &generator) {
                case 0: RecordResult(recordId: record.recordId, recordType: record.recordType, outcome: .saved, changeTag: record.changeTag)
                case 1: RecordResult(recordId: record.recordId, recordType: record.recordType, outcome: .serverRecordChanged, serverRecord: record)
                default: RecordResult(recordId: record.recordId, recordType: record.recordType, outcome: .error, message: "Refused \"/\n\u{7}")
                }
            }, authoredToken: Bool.random(using: &generator) ? "device:7" : nil)
            #expect(String(decoding: answer.wireJSON, as: UTF8.self) == String(decoding: try Self.sortedEncoder.encode(answer), as: UTF8.self))
            #expect(try ModifyResponse(wireJSON: Array(JSONEncoder().encode(answer))) == answer)
        }
    }

    @Test func readsWhiteSpaceEscapesAndLowercaseIds() throws {
        let id = UUID()
        let text = """
             { "recordType" : "note" ,\r\n\t"recordId":"\(id.uuidString.lowercased())", "operation": "save", "baseChangeTag": null,
               "fields": {"title": "caf\\u00e9 \\ud83d\\ude00 \\/ \\"x\\"", "n": -1.5e3, "tags": [], "x": [true, false, null, [0]]},
               "unknown": {"nested": [1, {"a": 2}]} }
            """
        let change = try WireReader.read(Array(text.utf8)) { reader throws(WireJSONError) in try RecordChange(reading: &reader) }
        #expect(change.recordId == id)
        #expect(change.baseChangeTag == nil)
        #expect(change.fields?["title"] == .string("café 😀 / \"x\""))
        #expect(change.fields?["n"] == .number(-1500))
        #expect(change.fields?["x"] == .array([.bool(true), .bool(false), .null, .array([.number(0)])]))
    }

    @Test(arguments: [
        "", " ", "{", "{\"a\" 1}", "{\"a\":1}x", "{a:1}", "{\"a\":01}", "{\"a\":1.}", "{\"a\":-}", "{\"a\":1e}",
        "{\"a\":.5}", "{\"a\":+1}", "{\"a\":1e400}", "{\"a\":\"x}", "{\"a\":\"\u{1}\"}", "{\"a\":\"\\q\"}", "{\"a\":\"\\u12\"}",
        "{\"a\":\"\\ud800\"}", "{\"a\":\"\\udc00\"}", "{\"a\":tru}", "{\"a\":nul}", "{\"a\":{\"b\":1}}", "[1]", "\"a\"",
        "{\"a\":NaN}", "{\"a\":Infinity}", "// comment\n{}", "{\"a\":\"\\u+123\"}",
        "{\"a\":\"x\\ny\u{1}\"}", "{\"a\":\"x\\nyz",
    ])
    func refusesMalformedFields(_ text: String) {
        #expect(throws: WireJSONError.self) { try RecordFields(wireJSON: Array(text.utf8)) }
        #expect(throws: (any Error).self) { try JSONDecoder().decode(RecordFields.self, from: Data(text.utf8)) }
    }

    /// Foundation's decoder lets these pass; JSON does not, and nothing here writes them.
    @Test(arguments: ["{\"a\":1,}", "{\"a\":[1,]}", "{\"a\":[1],}"])
    func refusesTrailingCommas(_ text: String) {
        let error = #expect(throws: WireJSONError.self) { try RecordFields(wireJSON: Array(text.utf8)) }
        #expect(error?.description.hasPrefix("The JSON is malformed: expected a") == true)
    }

    @Test func refusesInvalidUTF8AndDeepNesting() throws {
        // Invalid bytes alone, before an escape, and after one.
        for (before, after) in [("", ""), ("", "\\n"), ("x\\n", "y"), ("\\u00e9", "")] {
            let invalid: [UInt8] = Array("{\"a\":\"\(before)".utf8) + [0xC3, 0x28] + Array("\(after)\"}".utf8)
            #expect(throws: WireJSONError.self) { try RecordFields(wireJSON: invalid) }
        }
        let valid: [UInt8] = Array("{\"a\":\"x\\n".utf8) + [0xC3, 0xA9] + Array("\\u00e9\"}".utf8)
        #expect(try RecordFields(wireJSON: valid) == ["a": .string("x\né\u{e9}")])
        let deep = "{\"a\":" + String(repeating: "[", count: 200) + String(repeating: "]", count: 200) + "}"
        let error = #expect(throws: WireJSONError.self) { try RecordFields(wireJSON: Array(deep.utf8)) }
        #expect(error?.description.contains("nested too deeply") == true)
    }

    @Test func writesAndReadsIdsAsFoundationDoes() {
        for _ in 0..<1_000 {
            let id = UUID()
            #expect(id.wireText == id.uuidString)
            #expect(id.key == id.uuidString.lowercased())
            #expect(UUID(wireText: id.wireText) == id)
            #expect(UUID(wireText: id.key) == id)
        }
    }

    @Test(arguments: [
        "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f", "e621E1F8-c36C-495a-93Fc-0C247a3e6e5F",
        "E621E1F8C36C495A93FC0C247A3E6E5F", "E621E1F8-C36C-495A-93FC0-C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0C247A3E6E5",
        "E621E1F8-C36C-495A-93FC-0C247A3E6E5FF", "G621E1F8-C36C-495A-93FC-0C247A3E6E5F", "{E621E1F8-C36C-495A-93FC-0C247A3E6E5F}",
        " E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0C247A3E6Eé", "E621E1F8 C36C 495A 93FC 0C247A3E6E5F",
        "-E621E1F8C36C-495A-93FC-0C247A3E6E5F", "", "not-a-uuid",
    ])
    func parsesTheIdsFoundationParses(_ text: String) {
        #expect(UUID(wireText: text) == UUID(uuidString: text))
    }

    @Test func refusesMessagesWithoutTheirParts() {
        #expect(throws: WireJSONError.self) { try ChangesResponse(wireJSON: Array("{\"records\":[],\"token\":\"t\"}".utf8)) }
        #expect(throws: WireJSONError.self) { try ModifyRequest(wireJSON: Array("{\"changes\":[]}".utf8)) }
        #expect(throws: WireJSONError.self) { try ModifyResponse(wireJSON: Array("{\"authoredToken\":\"t\"}".utf8)) }
        let badOutcome = "{\"results\":[{\"recordId\":\"\(UUID())\",\"recordType\":\"note\",\"outcome\":\"maybe\"}]}"
        #expect(throws: WireJSONError.self) { try ModifyResponse(wireJSON: Array(badOutcome.utf8)) }
        let badId = "{\"changes\":[],\"requestId\":\"not-a-uuid\"}"
        let error = #expect(throws: WireJSONError.self) { try ModifyRequest(wireJSON: Array(badId.utf8)) }
        #expect(error?.description == "The JSON is malformed: 'not-a-uuid' is not a UUID at byte 38.")
        let badOperation = "{\"changes\":[{\"recordType\":\"note\",\"recordId\":\"\(UUID().uuidString)\",\"operation\":\"merge\"}],\"requestId\":\"\(UUID().uuidString)\"}"
        #expect(throws: WireJSONError.self) { try ModifyRequest(wireJSON: Array(badOperation.utf8)) }
    }
}
