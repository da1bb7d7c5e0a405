import Foundation

// The messages that carry records, read and written by hand in the same JSON as their
// `Codable` conformances (keys in byte order, ids as `UUID.uuidString`, absent optionals
// left out), so either side may use either.

extension SyncRecord {
    /// Reads a record.
    public init(reading reader: inout WireReader) throws(WireJSONError) {
        var recordType: String?, recordId: UUID?, changeTag: String?, deleted: Bool?, fields: RecordFields?, sentAgainFrom: String?
        try reader.object { reader, key throws(WireJSONError) in
            switch key {
            case "recordType": recordType = try reader.string()
            case "recordId": recordId = try reader.uuid()
            case "changeTag": changeTag = try reader.string()
            case "deleted": deleted = try reader.bool()
            case "fields": fields = try RecordFields(reading: &reader)
            case "sentAgainFrom": sentAgainFrom = try reader.null() ? nil : try reader.string()
            default: try reader.skip()
            }
        }
        guard let recordType, let recordId, let changeTag, let deleted, let fields else {
            throw reader.refusal("a record without its recordType, recordId, changeTag, deleted and fields")
        }
        self.init(recordType: recordType, recordId: recordId, changeTag: changeTag, deleted: deleted, fields: fields, sentAgainFrom: sentAgainFrom)
    }

    /// Writes the record.
    public func write(to writer: inout WireWriter) {
        writer.object { writer in
            writer.key("changeTag"); writer.string(changeTag)
            writer.key("deleted"); writer.bool(deleted)
            writer.key("fields"); fields.write(to: &writer)
            writer.key("recordId"); writer.string(recordId.wireText)
            writer.key("recordType"); writer.string(recordType)
            if let sentAgainFrom { writer.key("sentAgainFrom"); writer.string(sentAgainFrom) }
        }
    }
}

extension ChangesResponse {
    /// Reads a page of changes from a whole JSON document.
    public init(wireJSON bytes: [UInt8]) throws(WireJSONError) {
        self = try WireReader.read(bytes) { reader throws(WireJSONError) in
            var records: [SyncRecord]?, token: String?, moreComing: Bool?
            try reader.object { reader, key throws(WireJSONError) in
                switch key {
                case "records":
                    var list: [SyncRecord] = []
                    try reader.array { reader throws(WireJSONError) in list.append(try SyncRecord(reading: &reader)) }
                    records = list
                case "token": token = try reader.string()
                case "moreComing": moreComing = try reader.bool()
                default: try reader.skip()
                }
            }
            guard let records, let token, let moreComing else { throw reader.refusal("a page of changes without its records, token and moreComing") }
            return ChangesResponse(records: records, token: token, moreComing: moreComing)
        }
    }

    /// The page as one JSON document.
    public var wireJSON: [UInt8] {
        var writer = WireWriter()
        writer.object { writer in
            writer.key("moreComing"); writer.bool(moreComing)
            writer.key("records"); writer.array(records) { writer, record in record.write(to: &writer) }
            writer.key("token"); writer.string(token)
        }
        return writer.bytes
    }
}

extension RecordChange {
    /// Reads a change.
    public init(reading reader: inout WireReader) throws(WireJSONError) {
        var fieldsJSON: String?
        try self.init(reading: &reader, fieldsJSON: &fieldsJSON)
    }

    /// Reads a change, and its fields' JSON as it was written into `fieldsJSON` (`nil` when
    /// it has none): text already checked, which a server may keep as it is.
    public init(reading reader: inout WireReader, fieldsJSON: inout String?) throws(WireJSONError) {
        var recordType: String?, recordId: UUID?, operation: Operation?, baseChangeTag: String?, fields: RecordFields?
        var derived: Bool?, baseLive: Bool?, sentAgainFrom: String?
        try reader.object { reader, key throws(WireJSONError) in
            switch key {
            case "recordType": recordType = try reader.string()
            case "recordId": recordId = try reader.uuid()
            case "operation":
                let name = try reader.string()
                guard let value = Operation(rawValue: name) else { throw reader.refusal("an unknown operation '\(name.prefix(40))'") }
                operation = value
            case "baseChangeTag": baseChangeTag = try reader.null() ? nil : try reader.string()
            case "derived": derived = try reader.bool()
            case "baseLive": baseLive = try reader.bool()
            case "sentAgainFrom": sentAgainFrom = try reader.null() ? nil : try reader.string()
            case "fields":
                if try reader.null() {
                    (fields, fieldsJSON) = (nil, nil)
                } else {
                    (fields, fieldsJSON) = try reader.capturing { reader throws(WireJSONError) in try RecordFields(reading: &reader) }
                }
            default: try reader.skip()
            }
        }
        guard let recordType, let recordId, let operation else { throw reader.refusal("a change without its recordType, recordId and operation") }
        self.init(recordType: recordType, recordId: recordId, operation: operation, baseChangeTag: baseChangeTag, fields: fields)
        self.derived = derived
        self.baseLive = baseLive
        self.sentAgainFrom = sentAgainFrom
    }

    /// Writes the change; `fieldsJSON`, when given, is its fields already written.
    public func write(to writer: inout WireWriter, fieldsJSON: String? = nil) {
        writer.object { writer in
            if let baseChangeTag { writer.key("baseChangeTag"); writer.string(baseChangeTag) }
            if let baseLive { writer.key("baseLive"); writer.bool(baseLive) }
            if let derived { writer.key("derived"); writer.bool(derived) }
            if let fieldsJSON {
                writer.key("fields"); writer.raw(fieldsJSON.utf8)
            } else if let fields {
                writer.key("fields"); fields.write(to: &writer)
            }
            writer.key("operation"); writer.string(operation.rawValue)
            writer.key("recordId"); writer.string(recordId.wireText)
            writer.key("recordType"); writer.string(recordType)
            if let sentAgainFrom { writer.key("sentAgainFrom"); writer.string(sentAgainFrom) }
        }
    }
}

extension ModifyRequest {
    /// Reads a batch.
    public init(reading reader: inout WireReader) throws(WireJSONError) {
        var fieldsJSON: [String?] = []
        try self.init(reading: &reader, fieldsJSON: &fieldsJSON)
    }

    /// Reads a batch, and each change's fields as written into `fieldsJSON` (see
    /// ``RecordChange/init(reading:fieldsJSON:)``), one entry a change.
    public init(reading reader: inout WireReader, fieldsJSON: inout [String?]) throws(WireJSONError) {
        var requestId: UUID?, changes: [RecordChange]?, deviceId: UUID?, changeToken: String?, authoredToken: String?
        try reader.object { reader, key throws(WireJSONError) in
            switch key {
            case "requestId": requestId = try reader.uuid()
            case "changes":
                var list: [RecordChange] = []
                var texts: [String?] = []
                try reader.array { reader throws(WireJSONError) in
                    var text: String?
                    list.append(try RecordChange(reading: &reader, fieldsJSON: &text))
                    texts.append(text)
                }
                changes = list
                fieldsJSON = texts
            case "deviceId": deviceId = try reader.null() ? nil : try reader.uuid()
            case "changeToken": changeToken = try reader.null() ? nil : try reader.string()
            case "authoredToken": authoredToken = try reader.null() ? nil : try reader.string()
            default: try reader.skip()
            }
        }
        guard let requestId, let changes else { throw reader.refusal("a batch without its requestId and changes") }
        self.init(requestId: requestId, changes: changes, deviceId: deviceId, changeToken: changeToken, authoredToken: authoredToken)
    }

    /// Reads a batch from a whole JSON document.
    public init(wireJSON bytes: [UInt8]) throws(WireJSONError) {
        self = try WireReader.read(bytes) { reader throws(WireJSONError) in try ModifyRequest(reading: &reader) }
    }

    /// Reads a batch from a whole JSON document, and each change's fields as written.
    public init(wireJSON bytes: [UInt8], fieldsJSON: inout [String?]) throws(WireJSONError) {
        var texts: [String?] = []
        self = try WireReader.read(bytes) { reader throws(WireJSONError) in try ModifyRequest(reading: &reader, fieldsJSON: &texts) }
        fieldsJSON = texts
    }

    /// Writes the batch. `fieldsJSON`, when it has an entry for each change, holds their
    /// fields already written (`nil` for a deletion).
    public func write(to writer: inout WireWriter, fieldsJSON: [String?] = []) {
        let written = fieldsTexts(fieldsJSON)
        writer.object { writer in
            if let authoredToken { writer.key("authoredToken"); writer.string(authoredToken) }
            if let changeToken { writer.key("changeToken"); writer.string(changeToken) }
            writer.key("changes")
            writer.array(zip(changes, written)) { writer, pair in pair.0.write(to: &writer, fieldsJSON: pair.1) }
            if let deviceId { writer.key("deviceId"); writer.string(deviceId.wireText) }
            writer.key("requestId"); writer.string(requestId.wireText)
        }
    }

    /// Each change's fields as already written, from `fieldsJSON` when it has an entry for
    /// each change, else `nil` for every one (to be written from ``RecordChange/fields``).
    public func fieldsTexts(_ fieldsJSON: [String?]) -> [String?] {
        fieldsJSON.count == changes.count ? fieldsJSON : Array(repeating: nil, count: changes.count)
    }

    /// The batch as one JSON document.
    public var wireJSON: [UInt8] { wireJSON(fieldsJSON: []) }

    /// The batch as one JSON document, with each change's fields as already written in
    /// `fieldsJSON` (see ``write(to:fieldsJSON:)``).
    public func wireJSON(fieldsJSON: [String?]) -> [UInt8] {
        var writer = WireWriter()
        write(to: &writer, fieldsJSON: fieldsJSON)
        return writer.bytes
    }
}

extension RecordResult {
    /// Reads the answer for one change.
    public init(reading reader: inout WireReader) throws(WireJSONError) {
        var recordId: UUID?, recordType: String?, outcome: Outcome?, changeTag: String?, serverRecord: SyncRecord?, message: String?
        try reader.object { reader, key throws(WireJSONError) in
            switch key {
            case "recordId": recordId = try reader.uuid()
            case "recordType": recordType = try reader.string()
            case "outcome":
                let name = try reader.string()
                guard let value = Outcome(rawValue: name) else { throw reader.refusal("an unknown outcome '\(name.prefix(40))'") }
                outcome = value
            case "changeTag": changeTag = try reader.null() ? nil : try reader.string()
            case "serverRecord": serverRecord = try reader.null() ? nil : try SyncRecord(reading: &reader)
            case "message": message = try reader.null() ? nil : try reader.string()
            default: try reader.skip()
            }
        }
        guard let recordId, let recordType, let outcome else { throw reader.refusal("a result without its recordId, recordType and outcome") }
        self.init(recordId: recordId, recordType: recordType, outcome: outcome, changeTag: changeTag, serverRecord: serverRecord, message: message)
    }

    /// Writes the result.
    public func write(to writer: inout WireWriter) {
        writer.object { writer in
            if let changeTag { writer.key("changeTag"); writer.string(changeTag) }
            if let message { writer.key("message"); writer.string(message) }
            writer.key("outcome"); writer.string(outcome.rawValue)
            writer.key("recordId"); writer.string(recordId.wireText)
            writer.key("recordType"); writer.string(recordType)
            if let serverRecord { writer.key("serverRecord"); serverRecord.write(to: &writer) }
        }
    }
}

extension ModifyResponse {
    /// Reads the answer to a batch from a whole JSON document.
    public init(wireJSON bytes: [UInt8]) throws(WireJSONError) {
        self = try WireReader.read(bytes) { reader throws(WireJSONError) in
            var results: [RecordResult]?, authoredToken: String?
            try reader.object { reader, key throws(WireJSONError) in
                switch key {
                case "results":
                    var list: [RecordResult] = []
                    try reader.array { reader throws(WireJSONError) in list.append(try RecordResult(reading: &reader)) }
                    results = list
                case "authoredToken": authoredToken = try reader.null() ? nil : try reader.string()
                default: try reader.skip()
                }
            }
            guard let results else { throw reader.refusal("an answer without its results") }
            return ModifyResponse(results: results, authoredToken: authoredToken)
        }
    }

    /// The answer as one JSON document.
    public var wireJSON: [UInt8] {
        var writer = WireWriter()
        writer.object { writer in
            if let authoredToken { writer.key("authoredToken"); writer.string(authoredToken) }
            writer.key("results"); writer.array(results) { writer, result in result.write(to: &writer) }
        }
        return writer.bytes
    }
}

extension WireReader {
    /// Reads a UUID written as a string, in either case.
    public mutating func uuid() throws(WireJSONError) -> UUID {
        let text = try string()
        guard let value = UUID(wireText: text) else { throw refusal("'\(text.prefix(40))' is not a UUID") }
        return value
    }
}

/// A message of the sync API read and written by hand (``WireReader``, ``WireWriter``) in
/// the same JSON as its `Codable` form: the messages that carry many records.
public protocol WireMessage: Codable {
    /// Reads the message from a whole JSON document.
    init(wireJSON bytes: [UInt8]) throws(WireJSONError)
    /// The message as one JSON document.
    var wireJSON: [UInt8] { get }
}

extension ChangesResponse: WireMessage {}
extension ModifyRequest: WireMessage {}
extension ModifyResponse: WireMessage {}
