import Foundation
import NoteTakerSyncProtocol

/// The envelope as a record's fields on the wire (docs/encryption.md §3.3): five scalar
/// fields, `$enc` (``RecordFields/sealedMarker``), `$zone`, `$key`, `$salt` and `$sealed`, and
/// nothing else; in a shared zone seven, with `$by` and `$sig` (docs/sharing.md §4), or eight
/// for a record signed with its batch, with `$path` (§4.1).
extension SealedRecord {
    private enum Field {
        static let zone = "$zone", key = "$key", salt = "$salt", sealed = "$sealed", by = "$by", signature = "$sig", path = "$path"
    }

    /// The envelope as the record's fields.
    public var fields: RecordFields { envelope.fields }

    /// The envelope as the record's fields, and as the JSON the wire codec writes for them
    /// (keys in byte order; base64url, the zone's name and an account's need no escaping),
    /// each value encoded once.
    public var envelope: (fields: RecordFields, json: String) {
        let (salt, sealed) = (Base64URL.encode(salt), Base64URL.encode(sealed))
        var fields: RecordFields = [
            RecordFields.sealedMarker: .number(Double(version)), Field.zone: .string(zone), Field.key: .number(Double(keyVersion)),
            Field.salt: .string(salt), Field.sealed: .string(sealed),
        ]
        let head = "\"$enc\":\(version),\"$key\":\(keyVersion),"
        let tail = "\"$salt\":\"\(salt)\",\"$sealed\":\"\(sealed)\","
        guard let (author, signature) = signed else { return (fields, "{" + head + tail + "\"$zone\":\"\(zone)\"}") }
        let encoded = Base64URL.encode(signature)
        fields[Field.by] = .string(author)
        fields[Field.signature] = .string(encoded)
        let path = batchPath.map { Base64URL.encode($0.bytes) }
        fields[Field.path] = path.map { .string($0) }
        let pathJSON = path.map { "\"$path\":\"\($0)\"," } ?? ""
        return (fields, "{\"$by\":\"\(author)\"," + head + pathJSON + tail + "\"$sig\":\"\(encoded)\",\"$zone\":\"\(zone)\"}")
    }

    /// Reads an envelope from a record's fields. Fields missing, extra, of the wrong kind or
    /// not in their one spelling are `notAuthentic`: they were not written by a device. `$by`
    /// must be a user name (lowercased) and `$sig` 64 bytes, both there or neither; `$path`
    /// only with them, a path ``BatchPath/init(bytes:)`` reads.
    public init(fields: RecordFields) throws(EncryptionError) {
        guard let version = fields[RecordFields.sealedMarker]?.number.flatMap(Self.integer),
              let zone = fields[Field.zone]?.string,
              let keyVersion = fields[Field.key]?.number.flatMap(Self.integer), keyVersion >= 1,
              let salt = fields[Field.salt]?.string.flatMap(Base64URL.decode),
              let sealed = fields[Field.sealed]?.string.flatMap(Base64URL.decode)
        else { throw .notAuthentic }
        self.init(version: version, zone: zone, keyVersion: keyVersion, salt: salt, sealed: sealed)
        switch (fields.count, fields[Field.by], fields[Field.signature], fields[Field.path]) {
        case (5, nil, nil, nil):
            return
        case (7, .string(let author)?, .string(let signature)?, nil), (8, .string(let author)?, .string(let signature)?, .string?):
            guard UserName.isValid(author), author == author.lowercased(), let bytes = Base64URL.decode(signature), bytes.count == 64 else {
                throw .notAuthentic
            }
            signed = (author, bytes)
            guard case .string(let path)? = fields[Field.path] else { return }
            guard let batchPath = Base64URL.decode(path).flatMap(BatchPath.init(bytes:)) else { throw .notAuthentic }
            self.batchPath = batchPath
        default:
            throw .notAuthentic
        }
    }

    /// A whole number the size of an `Int`, without trapping on outside data.
    private static func integer(_ number: Double) -> Int? {
        number.rounded() == number && abs(number) < 1e15 ? Int(number) : nil
    }
}
