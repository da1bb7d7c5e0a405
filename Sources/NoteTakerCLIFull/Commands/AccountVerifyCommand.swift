import ArgumentParser
import Foundation
import NoteTakerCLI
import NoteTakerKit
import NoteTakerSync

/// `notetaker account verify USER`: the safety number of this account with another, to compare
/// with theirs before sharing (docs/sharing.md §2), and whether their keys are the ones this
/// device kept.
struct AccountVerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Show the safety number of your account with another, to compare with theirs.",
        discussion: "Both of you run it (notetaker account verify OTHER-NAME): the same number on both devices means each holds the other's real keys, and no server stands between you. This device keeps their keys and tells you if they change.")
    @Argument(help: "The other account's user name.")
    var user: String
    @Flag(help: "Keep the other account's keys after they changed, once you compared the new safety number with them.")
    var confirm = false
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: JSONFlag

    /// What `--json` prints.
    struct Verified: Encodable {
        var account: String
        var safetyNumber: String
        /// `first`, `same`, `changed` or `confirmed`.
        var keys: String
        /// When this device kept the keys that changed; `null` otherwise.
        var keptAt: Date?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(account, forKey: .account)
            try container.encode(safetyNumber, forKey: .safetyNumber)
            try container.encode(keys, forKey: .keys)
            try container.encode(keptAt, forKey: .keptAt)
        }

        private enum CodingKeys: String, CodingKey { case account, safetyNumber, keys, keptAt }
    }

    func run() async throws {
        let store = try storeOptions.open()
        let check = try await store.checkIdentity(of: user, confirming: confirm)
        var verified = Verified(account: check.account, safetyNumber: check.safetyNumber, keys: "same")
        switch check.sighting {
        case .first: verified.keys = "first"
        case .same: verified.keys = "same"
        case .changed(let keptAt): (verified.keys, verified.keptAt) = ("changed", keptAt)
        case .confirmed: verified.keys = "confirmed"
        }
        if output.json {
            try JSONOutput.print(verified)
        } else {
            print(Words.text("safetyNumber", ["user": check.account, "number": check.safetyNumber]))
            print(Words.text("safetyNumberCompare", ["user": check.account, "me": try store.syncSettings().username ?? ""]))
            switch check.sighting {
            case .first: print(Words.text("identityKept", ["user": check.account]))
            case .same: print(Words.text("identitySame", ["user": check.account]))
            case .confirmed: print(Words.text("identityConfirmed", ["user": check.account]))
            case .changed: break
            }
        }
        if case .changed(let keptAt) = check.sighting {
            throw CommandError("identityChanged", ["user": check.account, "date": TextOutput.dateTime(keptAt)])
        }
    }
}
