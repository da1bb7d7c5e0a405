import Foundation
@testable import NoteTakerServer
import NoteTakerServerTestSupport
import NoteTakerSyncProtocol
import Testing

/// Passwords are hashed with scrypt as RFC 7914 defines it, at OWASP's cost, and a hash made
/// at an older cost is made again at the next log-in.
@Suite("Password hashing")
struct PasswordHasherTests {
    static func hex(_ text: String) -> Data {
        let digits = Array(text.replacingOccurrences(of: " ", with: ""))
        return Data(stride(from: 0, to: digits.count, by: 2).compactMap { UInt8(String(digits[$0...$0 + 1]), radix: 16) })
    }

    /// A stored hash holding RFC 7914's expected output (its first 32 bytes: PBKDF2's first
    /// block, the same whatever the length asked for).
    static func stored(_ n: Int, _ r: Int, _ p: Int, salt: String, output: String) -> String {
        ["scrypt", String(n), String(r), String(p), Data(salt.utf8).base64EncodedString(), hex(output).prefix(32).base64EncodedString()]
            .joined(separator: "$")
    }

    @Test("RFC 7914's test vectors check (p = 1 and p = 16), and nothing else does")
    func knownAnswers() {
        let hasher = PasswordHasher.standard
        let vector2 = Self.stored(1024, 8, 16, salt: "NaCl", output: "fd ba be 1c 9d 34 72 00 78 56 e7 19 0d 01 e9 fe 7c 6a d7 cb c8 23 78 30 e7 73 76 63 4b 37 31 62")
        let vector3 = Self.stored(16384, 8, 1, salt: "SodiumChloride", output: "70 23 bd cb 3a fd 73 48 46 1c 06 cd 81 fd 38 eb fd a8 fb ba 90 4f 8e 3e a9 b5 43 f6 54 5d a1 f2")
        #expect(hasher.verify("password", against: vector2))
        #expect(hasher.verify("pleaseletmein", against: vector3))
        #expect(!hasher.verify("Password", against: vector2))
        #expect(!hasher.verify("pleaseletmein", against: vector3.replacingOccurrences(of: "$16384$", with: "$8192$")))
        for damaged in ["", "scrypt$16384$8$1$AAAA", "bcrypt$16384$8$1$AAAA$AAAA", vector3.replacingOccurrences(of: "$16384$", with: "$16383$"),
                        vector3.replacingOccurrences(of: "$16384$", with: "$\(1 << 24)$"), vector3.replacingOccurrences(of: "$8$1$", with: "$8$99$")] {
            #expect(!hasher.verify("pleaseletmein", against: damaged), "\(damaged)")
            #expect(hasher.needsUpgrade(damaged))
        }
    }

    @Test("the standard cost is OWASP's (N = 2^16, r = 8, p = 2, equal to 2^17/8/1), and a hash made with it checks")
    func standardCost() throws {
        let hasher = PasswordHasher.standard
        #expect(hasher.rounds == 1 << 16 && hasher.blockSize == 8 && hasher.parallelism == 2)
        let hash = try hasher.hash("correct horse battery")
        #expect(hash.hasPrefix("scrypt$65536$8$2$"))
        #expect(hasher.verify("correct horse battery", against: hash))
        #expect(!hasher.needsUpgrade(hash))
        #expect(hasher.needsUpgrade(try PasswordHasher(rounds: 1 << 12, blockSize: 8).hash("x")))
    }

    @Test("a hash made at a lower cost is made again at the next successful log-in, and still logs in")
    func upgradeAtLogIn() async throws {
        let server = try await TestServer()
        _ = try await server.service.addAccount(Credentials(username: "ada", password: "correct horse"))
        let weak = try #require(try await server.service.storage.account(named: "ada")).passwordHash
        let stronger = PasswordHasher(rounds: 1 << 11, blockSize: 8, parallelism: 2)
        let upgraded = SyncService(storage: server.service.storage, assets: server.service.assets, quotaBytes: 1 << 30, hasher: stronger)

        await #expect(throws: SyncServerError.wrongCredentials) {
            try await upgraded.login(Credentials(username: "ada", password: "wrong horse"), from: "192.0.2.1")
        }
        #expect(try await server.service.storage.account(named: "ada")?.passwordHash == weak, "a wrong password changes nothing")
        _ = try await upgraded.login(Credentials(username: "ada", password: "correct horse"), from: "192.0.2.1")
        let now = try #require(try await server.service.storage.account(named: "ada")).passwordHash
        #expect(now != weak && now.hasPrefix("scrypt$2048$8$2$"))
        _ = try await upgraded.login(Credentials(username: "ada", password: "correct horse"), from: "192.0.2.1")
        #expect(try await server.service.storage.account(named: "ada")?.passwordHash == now, "made once, not at every log-in")
    }
}
