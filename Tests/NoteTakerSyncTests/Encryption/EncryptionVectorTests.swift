import Crypto
import Foundation
import NoteTakerSyncProtocol
import Testing

@testable import NoteTakerKit
@testable import NoteTakerSync

/// The primitives of docs/encryption.md against its known-answer vectors, which
/// `scripts/encryption-vectors` computed from the text in Python; then the attacker's moves
/// against each: a changed byte, a record moved to another id or zone, a chunk reordered or cut.
@Suite struct EncryptionVectorTests {
    let vectors: [String: Any]

    init() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/encryption-vectors.json")
        vectors = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    func vector(_ name: String) throws -> [String: Any] {
        try #require(vectors[name] as? [String: Any], "no vector \(name)")
    }

    func bytes(_ value: Any?) throws -> Data {
        var text = try #require(value as? String).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        return try #require(Data(base64Encoded: text))
    }

    private func key(_ value: Any?) throws -> SymmetricKey { SymmetricKey(data: try bytes(value)) }

    func raw(_ key: SymmetricKey) -> Data { key.withUnsafeBytes { Data($0) } }

    @Test(arguments: ["kdf_quick", "kdf_production"])
    func passwordKeys(name: String) throws {
        let v = try vector(name)
        let parameters = KDFParameters(kdf: "scrypt", n: try #require(v["n"] as? Int), r: 8, p: 1, salt: Base64URL.encode(try bytes(v["salt"])))
        let keys = try PasswordKeys(password: try #require(v["password"] as? String), parameters: parameters, minimumCost: 1 << 10)
        #expect(raw(keys.keyEncryptionKey) == (try bytes(v["keyEncryptionKey"])))
        #expect(raw(keys.loginSecret) == (try bytes(v["loginSecret"])))
        // The same password typed decomposed (u + combining diaeresis) gives the same keys.
        let decomposed = try PasswordKeys(password: "correct horse battery staple u\u{0308}", parameters: parameters, minimumCost: 1 << 10)
        #expect(raw(decomposed.keyEncryptionKey) == raw(keys.keyEncryptionKey))
        var odd = parameters
        odd.n = 1000
        #expect(throws: EncryptionError.self) { try PasswordKeys(password: "x", parameters: odd, minimumCost: 1 << 10) }
        // A server that hands out cheaper parameters than this version's gets nothing stretched with them.
        if parameters.n ?? 0 < 1 << 17 {
            #expect(throws: EncryptionError.self) { try PasswordKeys(password: "x", parameters: parameters) }
        }
    }

    @Test func accountKeyWraps() throws {
        let v = try vector("account_key_wrap")
        let wrapping = try key(v["keyEncryptionKey"])
        let data = KeyWrap.accountKeyData(account: "Ada")
        #expect(String(decoding: data, as: UTF8.self) == v["aad"] as? String)
        let wrapped = try KeyWrap.wrap(try key(v["accountKey"]), with: wrapping, data: data, nonce: try AES.GCM.Nonce(data: try bytes(v["nonce"])))
        #expect(wrapped == (try bytes(v["wrapped"])))
        #expect(raw(try KeyWrap.unwrap(wrapped, with: wrapping, data: data)) == (try bytes(v["accountKey"])))
        var changed = wrapped
        changed[20] ^= 1
        #expect(throws: EncryptionError.notAuthentic) { try KeyWrap.unwrap(changed, with: wrapping, data: data) }
        #expect(throws: EncryptionError.notAuthentic) { try KeyWrap.unwrap(wrapped, with: wrapping, data: KeyWrap.accountKeyData(account: "eve")) }
        #expect(throws: EncryptionError.notAuthentic) { try KeyWrap.unwrap(wrapped, with: SymmetricKey(size: .bits256), data: data) }
    }

    @Test func recoveryCode() throws {
        let v = try vector("recovery_key")
        let code = RecoveryCode(key: try key(v["recoveryKey"]))
        #expect(code.code == v["code"] as? String)
        #expect(raw(code.keyEncryptionKey) == (try bytes(v["recoveryKeyEncryptionKey"])))
        #expect(raw(code.recoverySecret) == (try bytes(v["recoverySecret"])))
        let typed = try #require(v["code"] as? String).lowercased().replacingOccurrences(of: "-", with: " ").replacingOccurrences(of: "1", with: "l")
        #expect(raw(try RecoveryCode(code: typed).key) == (try bytes(v["recoveryKey"])), "case, spaces and l for 1 are forgiven")
        var mistyped = Array(try #require(v["code"] as? String))
        mistyped[3] = mistyped[3] == "A" ? "B" : "A"
        #expect(throws: EncryptionError.badRecoveryCode) { try RecoveryCode(code: String(mistyped)) }
        #expect(throws: EncryptionError.badRecoveryCode) { try RecoveryCode(code: "not a code") }
        let wrapped = try bytes(v["wrapped"])
        #expect(raw(try KeyWrap.unwrap(wrapped, with: code.keyEncryptionKey, data: KeyWrap.accountKeyData(account: "ada"))) == (try bytes(try vector("account_key_wrap")["accountKey"])))
        let fresh = RecoveryCode()
        #expect(raw(try RecoveryCode(code: fresh.code).key) == raw(fresh.key))
    }

    @Test func zoneKeys() throws {
        let v = try vector("zone_keys")
        let accountKey = try key(v["accountKey"])
        #expect(raw(try KeyWrap.unwrap(try bytes(v["wrappedZoneKey"]), with: accountKey, data: KeyWrap.zoneKeyData(zone: "private", version: 1))) == (try bytes(v["zoneKey"])))
        #expect(raw(try KeyWrap.unwrap(try bytes(v["wrappedIdKey"]), with: accountKey, data: KeyWrap.idKeyData(zone: "private"))) == (try bytes(v["idKey"])))
        #expect(throws: EncryptionError.notAuthentic) {
            try KeyWrap.unwrap(try bytes(v["wrappedZoneKey"]), with: accountKey, data: KeyWrap.zoneKeyData(zone: "private", version: 2))
        }
    }

    @Test func recordSeal() throws {
        let v = try vector("record_seal")
        let zoneKey = try key(v["zoneKey"])
        let address = SealedRecord.Address(zone: "private", recordType: "note", recordId: try #require(v["recordId"] as? String))
        let plaintext = Data(try #require(v["plaintext"] as? String).utf8)
        #expect(Padme.pad(plaintext) == (try bytes(v["padded"])))
        let sealed = try SealedRecord.seal(plaintext, for: address, zoneKey: zoneKey, keyVersion: 1, salt: try bytes(v["salt"]))
        #expect(sealed.sealed == (try bytes(v["ciphertext"])))
        #expect(try sealed.open(for: address, zoneKey: zoneKey) == plaintext)

        for moved in [SealedRecord.Address(zone: "private", recordType: "note", recordId: UUID().uuidString.lowercased()),
                      SealedRecord.Address(zone: "private", recordType: "tag", recordId: address.recordId),
                      SealedRecord.Address(zone: "shared", recordType: "note", recordId: address.recordId)] {
            #expect(throws: EncryptionError.notAuthentic) { try sealed.open(for: moved, zoneKey: zoneKey) }
        }
        var changed = sealed
        changed.sealed[5] ^= 0x40
        #expect(throws: EncryptionError.notAuthentic) { try changed.open(for: address, zoneKey: zoneKey) }
        var otherVersion = sealed
        otherVersion.keyVersion = 2
        #expect(throws: EncryptionError.notAuthentic) { try otherVersion.open(for: address, zoneKey: zoneKey) }
        var newer = sealed
        newer.version = 2
        #expect(throws: EncryptionError.unknownVersion(2)) { try newer.open(for: address, zoneKey: zoneKey) }
        let again = try SealedRecord.seal(plaintext, for: address, zoneKey: zoneKey, keyVersion: 1)
        #expect(again.salt != sealed.salt && again.sealed != sealed.sealed, "every seal has its own key")
    }

    /// A batch's salts are drawn at once from the system's generator: each 32 bytes, none
    /// the same as another, nor as the next batch's; and a record sealed with one opens.
    @Test func aBatchDrawsItsSaltsAtOnce() throws {
        let salts = SealedRecord.randomSalts(500) + SealedRecord.randomSalts(500)
        #expect(salts.allSatisfy { $0.count == 32 && $0.startIndex == 0 })
        #expect(Set(salts).count == 1_000)
        #expect(Set(salts.flatMap { $0 }).count > 250, "the bytes are spread over their values")
        #expect(SealedRecord.randomSalts(0).isEmpty)
        let zoneKey = SymmetricKey(size: .bits256)
        let address = SealedRecord.Address(zone: "private", recordType: "note", recordId: "a")
        let plaintext = Data(#"{"fields":{},"rev":1}"#.utf8)
        let sealed = try SealedRecord.seal(plaintext, for: address, zoneKey: zoneKey, keyVersion: 1, salt: salts[7])
        #expect(try sealed.open(for: address, zoneKey: zoneKey) == plaintext && sealed.salt == salts[7])
    }

    /// A record's key is written as HKDF's two HMACs (one output block): the same bytes as
    /// swift-crypto's HKDF, for any zone key and salt.
    @Test func recordKeyIsHKDF() {
        for _ in 0..<200 {
            let zoneKey = SymmetricKey(size: .bits256)
            let salt = Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })
            let expected = HKDF<SHA256>.deriveKey(inputKeyMaterial: zoneKey, salt: salt, info: Data("notetaker v1 record key".utf8), outputByteCount: 32)
            #expect(raw(SealedRecord.recordKey(zoneKey, salt: salt)) == raw(expected))
        }
    }

    @Test func padme() throws {
        let table = try #require(vectors["padme"] as? [[Int]])
        for row in table { #expect(Padme.length(row[0]) == row[1], "\(row)") }
        for length in [0, 1, 15, 16, 17, 1000, 70_000] {
            let text = Data((0..<length).map { UInt8($0 % 251) })
            #expect(try Padme.unpad(Padme.pad(text)) == text)
            #expect(Padme.pad(text).count <= max(2, Int(Double(length + 1) * 1.12) + 1))
        }
        #expect(throws: EncryptionError.malformed) { try Padme.unpad(Data([1, 2, 0, 0])) }
        #expect(throws: EncryptionError.malformed) { try Padme.unpad(Data()) }
    }

    @Test func keyedIds() throws {
        let v = try vector("keyed_ids")
        let identity = KeyedIdentity(idKey: try key(v["idKey"]))
        for case let entry as [String: String] in try #require(v["cases"] as? [Any]) {
            #expect(identity.id(kind: entry["kind"] ?? "", text: entry["text"] ?? "").uuidString.lowercased() == entry["id"])
        }
        let file = try #require(v["fileAddress"] as? [String: String])
        let digest = try #require(Data(hexString: file["contentSHA256"] ?? ""))
        #expect(identity.fileAddress(contentSHA256: digest) == file["address"])
        #expect(KeyedIdentity(idKey: SymmetricKey(size: .bits256)).id(kind: "tag", text: "work") != identity.id(kind: "tag", text: "work"),
                "without the zone's id key the id cannot be guessed")
    }

    @Test func deviceName() throws {
        let v = try vector("device_name")
        let accountKey = try key(v["accountKey"])
        let sessionId = try #require(v["sessionId"] as? String)
        let nonce = try AES.GCM.Nonce(data: try bytes(v["nonce"]))
        let sealed = try DeviceNameSeal.seal(try #require(v["name"] as? String), sessionId: sessionId, accountKey: accountKey, nonce: nonce)
        #expect(sealed == v["sealed"] as? String)
        #expect(try DeviceNameSeal.open(sealed, sessionId: sessionId, accountKey: accountKey) == v["name"] as? String)
        // The server's moves: the name given to another session, a byte changed, cut short, another account's key.
        #expect(throws: EncryptionError.notAuthentic) { try DeviceNameSeal.open(sealed, sessionId: "fedcba9876543210", accountKey: accountKey) }
        var flipped = Array(sealed)
        flipped[20] = flipped[20] == "A" ? "B" : "A"
        #expect(throws: EncryptionError.notAuthentic) { try DeviceNameSeal.open(String(flipped), sessionId: sessionId, accountKey: accountKey) }
        #expect(throws: EncryptionError.malformed) { try DeviceNameSeal.open(String(sealed.prefix(30)), sessionId: sessionId, accountKey: accountKey) }
        #expect(throws: EncryptionError.notAuthentic) {
            try DeviceNameSeal.open(sealed, sessionId: sessionId, accountKey: SymmetricKey(size: .bits256))
        }
        #expect(throws: EncryptionError.malformed) { try DeviceNameSeal.open("Ada's phone", sessionId: sessionId, accountKey: accountKey) }
    }

    @Test func fileChunks() throws {
        let v = try vector("file_chunks")
        let zoneKey = try key(v["zoneKey"])
        let address = try #require(v["address"] as? String)
        let sealer = FileSeal(zone: "private", zoneKey: zoneKey, keyVersion: 1, address: address, salt: try bytes(v["salt"]))
        #expect(sealer.header == (try bytes(v["header"])))
        let content = try bytes(v["content"])
        let expected = try #require(v["sealedChunks"] as? [String]).map { try bytes($0) }
        let chunks = stride(from: 0, to: content.count, by: 16).map { content[$0..<min($0 + 16, content.count)] }
        for (index, chunk) in chunks.enumerated() {
            #expect(try sealer.seal(Data(chunk), index: UInt64(index), last: index == chunks.count - 1) == expected[index])
        }
        let opener = try FileSeal(opening: sealer.header, zone: "private", zoneKey: zoneKey, address: address)
        #expect(opener.keyVersion == 1)
        var opened = Data()
        for (index, sealed) in expected.enumerated() { opened += try opener.open(sealed, index: UInt64(index), last: index == expected.count - 1) }
        #expect(opened == content)
        // Reordered, cut short, or another file's: each is caught.
        #expect(throws: EncryptionError.notAuthentic) { try opener.open(expected[1], index: 0, last: false) }
        #expect(throws: EncryptionError.notAuthentic) { try opener.open(expected[1], index: 1, last: true) }
        let other = try FileSeal(opening: sealer.header, zone: "private", zoneKey: zoneKey, address: String(repeating: "0", count: 64))
        #expect(throws: EncryptionError.notAuthentic) { try other.open(expected[0], index: 0, last: false) }
        #expect(throws: EncryptionError.notAuthentic) { try FileSeal(opening: Data("NTF2".utf8) + sealer.header.dropFirst(4), zone: "private", zoneKey: zoneKey, address: address) }
    }

    /// docs/sharing.md §2: identity key pairs from their private halves, their wraps by the
    /// account key, and the safety number of two accounts, the same from either side; each
    /// wrap bound to its use and account, and public halves that are not the private halves'
    /// refused.
    @Test func identityKeysAndSafetyNumbers() throws {
        let v = try vector("identity_keys")
        let ada = try #require(v["ada"] as? [String: Any]), bob = try #require(v["bob"] as? [String: Any])
        let pairs = try IdentityKeyPairs(agreement: try bytes(ada["agreementPrivate"]), signing: try bytes(ada["signingPrivate"]))
        #expect(pairs.identity == AccountIdentity(agreement: try #require(ada["agreement"] as? String), signing: try #require(ada["signing"] as? String)))
        let accountKey = try key(v["accountKey"])
        let wraps = try #require(ada["wraps"] as? [String: [String: String]])
        for (use, privateHalf) in [("agreement", "agreementPrivate"), ("signing", "signingPrivate")] {
            let data = KeyWrap.identityKeyData(use: use, account: "Ada")
            #expect(String(decoding: data, as: UTF8.self) == wraps[use]?["aad"])
            let wrapped = try KeyWrap.wrap(try key(ada[privateHalf]), with: accountKey, data: data, nonce: try AES.GCM.Nonce(data: try bytes(v["nonce"])))
            #expect(wrapped == (try bytes(wraps[use]?["wrapped"])))
        }
        let kept = IdentityKeys(agreement: pairs.identity.agreement, signing: pairs.identity.signing,
                                agreementKey: try #require(wraps["agreement"]?["wrapped"]), signingKey: try #require(wraps["signing"]?["wrapped"]))
        #expect(try IdentityKeyPairs(opening: kept, with: accountKey, account: "ada") == pairs)
        // Swapped wraps, another account's name, or a public half of the server's own do not open.
        var swapped = kept
        (swapped.agreementKey, swapped.signingKey) = (kept.signingKey, kept.agreementKey)
        #expect(throws: EncryptionError.notAuthentic) { try IdentityKeyPairs(opening: swapped, with: accountKey, account: "ada") }
        #expect(throws: EncryptionError.notAuthentic) { try IdentityKeyPairs(opening: kept, with: accountKey, account: "bob") }
        var replaced = kept
        replaced.agreement = try #require(bob["agreement"] as? String)
        #expect(throws: EncryptionError.notAuthentic) { try IdentityKeyPairs(opening: replaced, with: accountKey, account: "ada") }

        let bobIdentity = AccountIdentity(agreement: try #require(bob["agreement"] as? String), signing: try #require(bob["signing"] as? String))
        let number = SafetyNumber.between(("Ada", pairs.identity), ("bob", bobIdentity))
        #expect(number == v["safetyNumber"] as? String)
        #expect(SafetyNumber.between(("bob", bobIdentity), ("ada", pairs.identity)) == number, "the same from either side, whatever the case")
        #expect(SafetyNumber.between(("bob", pairs.identity), ("ada", bobIdentity)) != number, "keys named for the other account")
        #expect(SafetyNumber.between(("bob", AccountIdentity(agreement: "short", signing: bobIdentity.signing)), ("ada", pairs.identity)) == nil)
    }

    /// docs/sharing.md §5.2: a published page sealed under its own key, bound to its id, and
    /// its link; then the server's moves: a changed byte, a blob served under another page's
    /// id, a cut blob, another format.
    @Test func publishedPage() throws {
        let page = try vector("published_page")
        let (key, id) = (try bytes(page["key"]), try #require(page["id"] as? String))
        let plaintext = Data(try #require(page["plaintext"] as? String).utf8)
        let blob = try bytes(page["blob"])
        #expect(try PublishedPageSeal.seal(plaintext, id: id, key: key, nonce: try bytes(page["nonce"])) == blob)
        #expect(try PublishedPageSeal.open(blob, id: id, key: key) == plaintext)
        let content = try PublishedPageContent(plaintext: plaintext)
        #expect(content.title == "Trip plan" && content.html.contains("<strong>the map</strong>"))
        #expect(try content.plaintext() == plaintext, "the content writes the same JSON back")
        #expect(PublishedNote.link(server: try #require(URL(string: "https://notes.example/")), pageId: id, key: key) == page["link"] as? String)
        #expect(PublishedPageID.isValid(id))

        var changed = blob
        changed[changed.count - 20] ^= 1
        let otherID = Base64URL.encode(Data(repeating: 1, count: 16))
        let cut = blob.prefix(blob.count - 1)
        let otherFormat = Data("NTP2".utf8) + blob.dropFirst(4)
        for (attack, bytes, pageID) in [("a changed byte", changed, id), ("another page's id", blob, otherID), ("a cut blob", cut, id),
                                        ("another format", otherFormat, id), ("nothing", Data(), id)] {
            #expect(throws: EncryptionError.notAuthentic, "\(attack)") { try PublishedPageSeal.open(bytes, id: pageID, key: key) }
        }
        #expect(throws: EncryptionError.notAuthentic) { try PublishedPageSeal.open(blob, id: id, key: Data(repeating: 0, count: 32)) }
        #expect(throws: EncryptionError.malformed) { try PublishedPageContent(plaintext: Data("{\"v\":2,\"title\":\"\",\"html\":\"\",\"published\":\"\"}".utf8)) }
        // Two seals of the same page differ: each draws its nonce.
        #expect(try PublishedPageSeal.seal(plaintext, id: id, key: key) != PublishedPageSeal.seal(plaintext, id: id, key: key))
    }
}

extension Data {
    /// Bytes from lowercase or uppercase hex; `nil` for anything else.
    init?(hexString: String) {
        guard hexString.count % 2 == 0 else { return nil }
        var bytes = [UInt8]()
        var index = hexString.startIndex
        while index < hexString.endIndex {
            let next = hexString.index(index, offsetBy: 2)
            guard let byte = UInt8(hexString[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        self.init(bytes)
    }
}
