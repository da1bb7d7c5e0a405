import ArgumentParser
import Foundation
import NoteTakerCLI
import NoteTakerKit
import NoteTakerSync
import NoteTakerSyncProtocol

/// `notetaker share …`: folders and notes shared with other accounts on the same server, end to
/// end encrypted (docs/sharing.md §3). A shared folder's notes are read and changed with
/// `--shared NAME` on the note commands.
struct ShareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: CompanionCommand.share.rawValue, abstract: CompanionCommand.share.abstract,
        discussion: """
            notetaker share FOLDER --with USER [--view] shares a folder (or a note, by its id) with another account \
            of the same server: it moves into the share, sealed with a key only its members hold. They accept it \
            (notetaker share accept), and read or change its notes with --shared NAME: notetaker list --shared Trip.
            """,
        subcommands: [ShareAddCommand.self, ShareListCommand.self, ShareAcceptCommand.self, ShareRoleCommand.self,
                      ShareRemoveCommand.self, ShareLeaveCommand.self, ShareMoveCommand.self],
        defaultSubcommand: ShareAddCommand.self)

    /// A role as people read it.
    static func roleText(_ role: ShareMembers.Role) -> String {
        switch role {
        case .owner: Words.text("shareRoleOwner")
        case .editor: Words.text("shareRoleEditor")
        case .viewer: Words.text("shareRoleViewer")
        }
    }

    /// The share `text` names among `entries`: its id or an id prefix of 4 characters or more,
    /// its title, or, for an invitation, its owner's account.
    static func resolve(_ text: String, in entries: [ShareEntry]) throws -> ShareEntry {
        let wanted = text.lowercased()
        let matches = entries.filter { $0.zone == wanted }.nilIfEmpty
            ?? entries.filter { $0.title.lowercased() == wanted && !$0.title.isEmpty }.nilIfEmpty
            ?? entries.filter { wanted.count >= 4 && $0.zone.hasPrefix(wanted) }.nilIfEmpty
            ?? entries.filter { !$0.accepted && $0.owner == wanted }
        guard matches.count == 1 else {
            throw CommandError(matches.isEmpty ? "shareNotFound" : "shareAmbiguous", ["share": text])
        }
        return matches[0]
    }

    /// The line saying how syncing a zone went.
    static func describe(_ synced: SharedZoneSync) -> String {
        let title = TextOutput.title(synced.zone.title)
        switch synced.result {
        case .success where synced.ended:
            return synced.keptPrivately > 0
                ? Words.text("shareEndedKept", ["title": title, "count": synced.keptPrivately]) : Words.text("shareEnded", ["title": title])
        case .success(let report):
            return Words.text("shareSynced", ["title": title, "parts": SyncNowCommand.parts(of: report)])
        case .failure(let error):
            return Words.text("shareSyncFailed", ["title": title, "reason": error.message])
        }
    }
}

extension Array {
    fileprivate var nilIfEmpty: Self? { isEmpty ? nil : self }
}

/// `notetaker share FOLDER|NOTE --with USER [--view]`: shares it, or adds members to a share.
struct ShareAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Share a folder or a note (or add members to one of your shares).")
    @Argument(help: "A folder (name, path or id), a note's id or prefix, or one of your shares.")
    var target: String
    @Option(name: .customLong("with"), help: "An account to share with (repeat for several).")
    var users: [String] = []
    @Flag(help: "They may read, not change (default: they may edit).")
    var view = false
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: JSONFlag

    func validate() throws {
        if users.isEmpty { throw ValidationError(Words.text("shareWithWhom")) }
    }

    func run() async throws {
        let store = try storeOptions.open()
        let role: ShareMembers.Role = view ? .viewer : .editor
        let invitees = users.map { (account: $0, role: role) }
        let zone: String
        if let existing = try store.sharedZones().first(where: { $0.role == .owner && ($0.title.lowercased() == target.lowercased() || $0.zone == target.lowercased()) }) {
            for user in users { try await store.setShareMember(existing.zone, account: user, role: role) }
            zone = existing.zone
        } else {
            let synced: SharedZoneSync
            if let folder = try? store.resolveFolder(target) {
                synced = try await store.shareFolder(folder.id, with: invitees)
            } else {
                synced = try await store.shareNote(try store.resolveNoteId(target), with: invitees)
            }
            if case .failure(let error) = synced.result { throw error }
            zone = synced.zone.zone
        }
        guard let entry = try await store.listShares().first(where: { $0.zone == zone }) else { throw SyncError.noSuchShare(zone) }
        if output.json { return try JSONOutput.print(entry) }
        let names = users.map { Words.text("shareMemberRole", ["user": $0.lowercased(), "role": ShareCommand.roleText(role)]) }
        print(Words.text("shared", ["title": TextOutput.title(entry.title), "members": names.joined(separator: ", ")]))
        print(Words.text("sharedNext", ["share": String(zone.prefix(8))]))
    }
}

/// `notetaker share list`: the shares this account takes part in, and its invitations.
struct ShareListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List your shares and invitations.")
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: JSONFlag

    func run() async throws {
        let entries = try await storeOptions.open().listShares()
        if output.json { return try JSONOutput.print(entries) }
        guard !entries.isEmpty else { return print(Words.text("sharesNone")) }
        TextOutput.printTable(entries.map { entry in
            let members = entry.members.filter { $0.role != .owner }.map { "\($0.account) (\(ShareCommand.roleText($0.role)))" }
            return [String(entry.zone.prefix(8)),
                    entry.accepted ? TextOutput.title(entry.title) : Words.text("shareInvitation"),
                    entry.role == .owner ? Words.text("shareYours") : Words.text("shareFrom", ["user": entry.owner]),
                    ShareCommand.roleText(entry.role), members.joined(separator: ", ")]
        })
    }
}

/// `notetaker share accept SHARE`: accepts an invitation and brings the shared notes here.
struct ShareAcceptCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "accept", abstract: "Accept an invitation to a share.")
    @Argument(help: "The share: its id (or a prefix), or the account that invited you.")
    var share: String
    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        let store = try storeOptions.open()
        let entry = try ShareCommand.resolve(share, in: try await store.listShares().filter { !$0.accepted })
        let synced = try await store.acceptShare(entry.zone)
        if case .failure(let error) = synced.result { throw error }
        print(Words.text("shareAccepted", ["title": TextOutput.title(synced.zone.title), "name": synced.zone.title, "user": entry.owner]))
    }
}

/// `notetaker share role SHARE USER editor|viewer`: changes a member's role, as the owner.
struct ShareRoleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "role", abstract: "Change what a member of your share may do.")
    @Argument(help: "The share: its title or id.")
    var share: String
    @Argument(help: "The member's account.")
    var user: String
    @Argument(help: "editor or viewer.")
    var role: String
    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        guard let newRole = ShareMembers.Role(rawValue: role.lowercased()), newRole != .owner else {
            throw CommandError("shareRoleUnknown", ["role": role])
        }
        let store = try storeOptions.open()
        let entry = try ShareCommand.resolve(share, in: try await store.listShares())
        guard entry.members.contains(where: { $0.account == user.lowercased() }) else {
            throw CommandError("shareNotAMember", ["user": user, "title": TextOutput.title(entry.title), "name": entry.title])
        }
        try await store.setShareMember(entry.zone, account: user, role: newRole)
        print(Words.text("shareRoleChanged", ["user": user.lowercased(), "title": TextOutput.title(entry.title), "role": ShareCommand.roleText(newRole)]))
    }
}

/// `notetaker share remove SHARE USER`: removes a member, as the owner; the key changes.
struct ShareRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a member from your share.")
    @Argument(help: "The share: its title or id.")
    var share: String
    @Argument(help: "The member's account.")
    var user: String
    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        let store = try storeOptions.open()
        let entry = try ShareCommand.resolve(share, in: try await store.listShares())
        try await store.setShareMember(entry.zone, account: user, role: nil)
        print(Words.text("shareMemberRemoved", ["user": user.lowercased(), "title": TextOutput.title(entry.title)]))
    }
}

/// `notetaker share leave SHARE`: leaves a share (or declines an invitation); the owner stops sharing.
struct ShareLeaveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "leave", abstract: "Leave a share or decline an invitation; for your own share, stop sharing it.")
    @Argument(help: "The share: its title or id, or the account that invited you.")
    var share: String
    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        let store = try storeOptions.open()
        let entry = try ShareCommand.resolve(share, in: try await store.listShares())
        let ended = try await store.leaveShare(entry.zone)
        if case .failure(let error) = ended.result { throw error }
        if entry.role == .owner {
            print(Words.text("shareStopped", ["title": TextOutput.title(entry.title), "count": ended.keptPrivately]))
        } else if !entry.accepted {
            print(Words.text("shareDeclined", ["user": entry.owner]))
        } else {
            print(ShareCommand.describe(ended))
        }
    }
}
