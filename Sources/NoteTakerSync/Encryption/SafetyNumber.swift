import Crypto
import Foundation
import NoteTakerSyncProtocol

/// The number two people compare to check that each holds the other's real identity keys
/// (docs/sharing.md §2): both apps compute the same from the pair, whichever side they are.
public enum SafetyNumber {
    /// The safety number of two accounts with these public keys, as six groups of five
    /// digits; `nil` when a key is not 32 bytes in base64url.
    public static func between(_ one: (account: String, identity: AccountIdentity), _ other: (account: String, identity: AccountIdentity)) -> String? {
        guard let first = id(one.account, one.identity), let second = id(other.account, other.identity) else { return nil }
        let (low, high) = first.lexicographicallyPrecedes(second) ? (first, second) : (second, first)
        var hash = SHA256()
        hash.update(data: Data("notetaker v1 safety number".utf8) + [0])
        hash.update(data: low)
        hash.update(data: high)
        let digest = Array(hash.finalize())
        return (0..<6).map { group in
            let value = digest[group * 5..<group * 5 + 5].reduce(UInt64(0)) { $0 << 8 | UInt64($1) } % 100_000
            let digits = String(value)
            return String(repeating: "0", count: 5 - digits.count) + digits
        }.joined(separator: " ")
    }

    /// An account's part: its lowercased name, a zero byte, its signing and agreement public keys.
    private static func id(_ account: String, _ identity: AccountIdentity) -> Data? {
        guard let signing = Base64URL.decode(identity.signing), signing.count == 32,
              let agreement = Base64URL.decode(identity.agreement), agreement.count == 32 else { return nil }
        return Data(account.lowercased().utf8) + [0] + signing + agreement
    }
}
