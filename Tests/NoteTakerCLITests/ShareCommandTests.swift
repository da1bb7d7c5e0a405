import Foundation
import Testing

/// `notetaker share …` (docs/sharing.md §3) between three accounts' processes and a real
/// server process: sharing a folder, accepting, reading and editing with `--shared`, a viewer
/// refused, a member removed, the owner stopping the share.
@Suite("Sharing from the command line")
struct ShareCommandTests {
    @Test("share a folder, accept it, edit it with --shared, a viewer refused; remove a member; stop sharing")
    func shareAcceptEditRemoveStop() throws {
        let server = try ServerProcess()
        let (ines, bob, carol, dave) = (CLIRunner(), CLIRunner(), CLIRunner(), CLIRunner())
        for (runner, name) in [(ines, "ines"), (bob, "bob"), (carol, "carol"), (dave, "dave")] {
            try runner.ok(["account", "register", "--server", server.url.absoluteString, "--user", name, "--password-stdin"], stdin: "correct horse battery\n")
        }
        try ines.ok(["folder", "new", "Trip"])
        let id = try ines.ok(["new", "Plan", "--body", "The coast", "--folder", "Trip"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let nobody = try ines.run(["share", "Trip"])
        #expect(nobody.status == 2 && nobody.stderr.contains("--with"), "\(nobody.stderr)")

        let shared = try ines.ok(["share", "Trip", "--with", "bob"])
        #expect(shared.contains("Shared “Trip” with bob (can edit)"), "\(shared)")
        #expect(try ines.ok(["share", "Trip", "--with", "carol", "--view"]).contains("carol (can view)"))
        try ines.ok(["share", "Trip", "--with", "dave"])
        #expect(try dave.ok(["share", "leave", "ines"]).contains("Declined the invitation from ines."))
        #expect(try dave.ok(["share", "list"]).contains("No shares"))
        #expect(!(try ines.ok(["list"]).contains("Plan")), "the folder left ines's own notes")
        #expect(try ines.ok(["show", id, "--shared", "Trip"]).contains("The coast"))

        let invitations = try #require(try bob.run(["share", "list", "--json"]).json() as? [[String: Any]])
        #expect(invitations.count == 1 && invitations.first?["owner"] as? String == "ines" && invitations.first?["accepted"] as? Bool == false)
        #expect(try bob.ok(["share", "accept", "ines"]).contains("Accepted “Trip” from ines"))
        #expect(try carol.ok(["share", "accept", "ines"]).contains("Accepted “Trip”"))
        #expect(try bob.ok(["list", "--shared", "Trip"]).contains("Plan"))
        let listed = try bob.ok(["share", "list"])
        #expect(listed.contains("from ines") && listed.contains("can edit") && listed.contains("carol (can view)"), "\(listed)")

        // Bob edits; ines and carol get it. Carol, a viewer, changes nothing.
        try bob.ok(["edit", id, "--body", "The coast, then the hills", "--shared", "Trip"])
        let synced = try bob.ok(["sync"])
        #expect(synced.contains("“Trip”: sent 1"), "\(synced)")
        try ines.ok(["sync"])
        try carol.ok(["sync"])
        let shownToInes = try ines.ok(["show", id, "--shared", "Trip"])
        #expect(shownToInes.contains("then the hills") && shownToInes.contains("edited by:") && shownToInes.contains("bob"), "\(shownToInes)")
        let inesJSON = try ines.run(["show", id, "--shared", "Trip", "--json"]).json() as? [String: Any]
        #expect(inesJSON?["editedBy"] as? String == "bob")
        let bobJSON = try bob.run(["show", id, "--shared", "Trip", "--json"]).json() as? [String: Any]
        #expect(bobJSON?["editedBy"] is NSNull, "one's own names no one")
        #expect(try carol.ok(["show", id, "--shared", "Trip"]).contains("then the hills"))
        let refused = try carol.run(["edit", id, "--body", "Mine now", "--shared", "Trip"])
        #expect(refused.status == 1 && refused.stderr.contains("You may view this shared folder, not change it"), "\(refused.stderr)")

        // Mistakes answer an error and change nothing.
        let owner = try ines.run(["share", "role", "Trip", "bob", "owner"])
        #expect(owner.status == 1 && owner.stderr.contains("\"owner\" is not a role"), "\(owner.stderr)")
        let stranger = try ines.run(["share", "role", "Trip", "zoe", "viewer"])
        #expect(stranger.status == 1 && stranger.stderr.contains("zoe is not a member of “Trip”"), "\(stranger.stderr)")
        let notOwner = try bob.run(["share", "remove", "Trip", "carol"])
        #expect(notOwner.status == 1 && notOwner.stderr.contains("Only the owner of a share"), "\(notOwner.stderr)")
        #expect(try bob.ok(["share", "list"]).contains("carol (can view)"), "nothing changed")

        // Ines removes carol: her share ends at her next sync.
        #expect(try ines.ok(["share", "remove", "Trip", "carol"]).contains("Removed carol from “Trip”"))
        #expect(try carol.ok(["sync"]).contains("“Trip”: this share ended here."))
        #expect(try carol.ok(["share", "list"]).contains("No shares"))
        let gone = try carol.run(["list", "--shared", "Trip"])
        #expect(gone.status == 1 && gone.stderr.contains("No share"), "\(gone.stderr)")

        // Ines stops sharing: the folder is hers again; bob's share ends.
        #expect(try ines.ok(["share", "leave", "Trip"]).contains("Stopped sharing “Trip”"))
        #expect(try ines.ok(["list", "--folder", "Trip"]).contains("Plan"))
        #expect(try bob.ok(["sync"]).contains("this share ended here"))
    }

    @Test("share move: a note of one's own into a shared folder, then out again with --private; mistakes change nothing")
    func moveInAndOut() throws {
        let server = try ServerProcess()
        let (ines, bob) = (CLIRunner(), CLIRunner())
        for (runner, name) in [(ines, "ines"), (bob, "bob")] {
            try runner.ok(["account", "register", "--server", server.url.absoluteString, "--user", name, "--password-stdin"], stdin: "correct horse battery\n")
        }
        try ines.ok(["folder", "new", "Trip"])
        try ines.ok(["share", "Trip", "--with", "bob"])
        try bob.ok(["share", "accept", "ines"])
        let id = try ines.ok(["new", "Packing", "--body", "Boots", "--tag", "travel"]).trimmingCharacters(in: .whitespacesAndNewlines)

        let nowhere = try ines.run(["share", "move", id])
        #expect(nowhere.status == 2 && nowhere.stderr.contains("--to SHARE, or --private"), "\(nowhere.stderr)")
        let noShare = try ines.run(["share", "move", id, "--to", "Holidays"])
        #expect(noShare.status == 1 && noShare.stderr.contains("No share \"Holidays\""), "\(noShare.stderr)")
        let noFolder = try ines.run(["share", "move", id, "--to", "Trip", "--folder", "Days"])
        #expect(noFolder.status == 1, "\(noFolder.stderr)")
        #expect(try ines.ok(["show", id]).contains("Boots"), "nothing moved")

        let moved = try ines.ok(["share", "move", id, "--to", "Trip"])
        #expect(moved.contains("Moved “Packing” into “Trip”"), "\(moved)")
        #expect(!(try ines.ok(["list"]).contains("Packing")))
        try bob.ok(["sync"])
        let shown = try bob.ok(["show", id, "--shared", "Trip"])
        #expect(shown.contains("Boots") && shown.contains("travel"), "\(shown)")

        let back = try #require(try ines.run(["share", "move", id, "--shared", "Trip", "--private", "--json"]).json() as? [String: Any])
        #expect(back["id"] as? String == id && back["share"] is NSNull && back["folderId"] is NSNull)
        #expect(try ines.ok(["show", id]).contains("Boots"))
        try bob.ok(["sync"])
        let gone = try bob.run(["show", id, "--shared", "Trip"])
        #expect(gone.status == 1, "the note left the share: \(gone.stdout)")
    }
}
