import Foundation
import NoteTakerSyncProtocol

/// The envelope as a record's fields on the wire (docs/encryption.md §3.3): five scalar
/// fields, `$enc` (``RecordFields/sealedMarker``), `$zone`, `$key`, `$salt` and `$sealed`, and nothing else.
extension SealedRecord {
    private enum Field {
        static let zone = "$zone", key = "$key", salt = "$salt", sealed = "$sealed"
    }

    /// The envelope as the record's fields.
    public var fields: RecordFields { envelope.fields }

    /// The envelope as the record's fields, and as the JSON the wire codec writes for them
    /// (keys in byte order; base64url and the zone's name need no escaping), each value
    /// encoded once.
    public var envelope: (fields: RecordFields, json: String) {
        let (salt, sealed) = (Base64URL.encode(salt), Base64URL.encode(sealed))
        let fields: RecordFields = [
            RecordFields.sealedMarker: .number(Double(version)), Field.zone: .string(zone), Field.key: .number(Double(keyVersion)),
            Field.salt: .string(salt), Field.sealed: .string(sealed),
        ]
        return (fields, "{\"$enc\":\(version),\"$key\":\(keyVersion),\"$salt\":\"\(salt)\",\"$sealed\":\"\(sealed)\",\"$zone\":\"\(zone)\"}")
    }

    /// Reads an envelope from a record's fields. Fields missing, extra, of the wrong kind or
    /// not in their one spelling are `notAuthentic`: they were not written by a device.
    public init(fields: RecordFields) throws(EncryptionError) {
        guard fields.count == 5,
              let version = fields[RecordFields.sealedMarker]?.number.flatMap(Self.integer),
              let zone = fields[Field.zone]?.string,
              let keyVersion = fields[Field.key]?.number.flatMap(Self.integer), keyVersion >= 1,
              let salt = fields[Field.salt]?.string.flatMap(Base64URL.decode),
              let sealed = fields[Field.sealed]?.string.flatMap(Base64URL.decode)
        else { throw .notAuthentic }
        self.init(version: version, zone: zone, keyVersion: keyVersion, salt: salt, sealed: sealed)
    }

    /// A whole number the size of an `Int`, without trapping on outside data.
    private static func integer(_ number: Double) -> Int? {
        number.rounded() == number && abs(number) < 1e15 ? Int(number) : nil
    }
}
