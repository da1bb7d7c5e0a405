import ArgumentParser
import Foundation
import NoteTakerCLI
import NoteTakerKit
import NoteTakerSync

/// `notetaker account recover`: a new password with the recovery code, when the password is
/// lost (docs/encryption.md §2.5).
struct AccountRecoverCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recover", abstract: "Set a new password with the recovery code, when the password is lost; not a note is lost.",
        discussion: "Give the recovery code and the new password on standard input, a line each: printf '%s\\n%s\\n' \"$CODE\" \"$NEW\" | notetaker account recover --server URL --user NAME --password-stdin. Every other device must then log in again with the new password.")
    @OptionGroup var account: AccountOptions
    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        let lines = StandardInput.readAll().split(separator: "\n", omittingEmptySubsequences: false).map { String($0) }
        guard lines.count >= 2, !lines[0].trimmingCharacters(in: .whitespaces).isEmpty, !lines[1].isEmpty else {
            throw CommandError("recoveryNotGiven")
        }
        let (url, trusted) = try account.endpoint()
        let connected = try await storeOptions.open().recoverSyncAccount(
            server: url, username: account.user, recoveryCode: lines[0], newPassword: lines[1], allowInsecure: account.insecure, trusting: trusted)
        print(Words.text("recovered", ["user": connected.session.username, "server": account.server]))
    }
}

/// Shows a new account's recovery code, once, and on a terminal asks for its last group back,
/// so that the person has written it down before going on.
enum RecoveryCodeNotice {
    static func show(_ code: String) {
        print("\n" + Words.text("recoveryCodeShown") + "\n\n    " + code + "\n\n" + Words.text("recoveryCodeWarning"))
        guard Terminal.isInteractive, let tty = FileHandle(forReadingAtPath: "/dev/tty") else { return }
        defer { try? tty.close() }
        let last = String(code.suffix(5))
        var prompt = Words.text("recoveryCodeConfirm")
        for _ in 0..<3 {
            FileHandle.standardOutput.write(Data(prompt.utf8))
            guard let typed = readLine(from: tty) else { break }
            if typed.trimmingCharacters(in: .whitespaces).uppercased() == last {
                return print(Words.text("recoveryCodeConfirmed"))
            }
            prompt = Words.text("recoveryCodeMistyped")
        }
        print(Words.text("recoveryCodeNotConfirmed"))
    }

    /// A line typed on the terminal, without its line break; `nil` at its end.
    private static func readLine(from tty: FileHandle) -> String? {
        var bytes: [UInt8] = []
        while let byte = try? tty.read(upToCount: 1), let first = byte.first {
            if first == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(first)
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }
}
