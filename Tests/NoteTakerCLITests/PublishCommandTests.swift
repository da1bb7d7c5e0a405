import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `notetaker publish` and `unpublish` (docs/sharing.md §5) against a real server process.
@Suite("Publishing from the command line")
struct PublishCommandTests {
    /// The HTTP status the server answers for `link`'s sealed page.
    private func pageStatus(_ link: String) async throws -> Int? {
        let url = try #require(URL(string: link))
        let blob = try #require(URL(string: "/v1/published/\(url.lastPathComponent)", relativeTo: url))
        let (_, response) = try await URLSession.shared.data(from: blob)
        return (response as? HTTPURLResponse)?.statusCode
    }

    @Test("publish prints a link with the key after #; publishing again keeps it; --list names every page; unpublish takes it down")
    func publishListUnpublish() async throws {
        let server = try ServerProcess()
        let (ada, phone) = (CLIRunner(), CLIRunner())
        try ada.ok(["account", "register", "--server", server.url.absoluteString, "--user", "ada", "--password-stdin"], stdin: "correct horse battery\n")
        try phone.ok(["account", "login", "--server", server.url.absoluteString, "--user", "ada", "--password-stdin"], stdin: "correct horse battery\n")
        let id = try ada.ok(["new", "Trip plan", "--body", "Bring the map"]).trimmingCharacters(in: .whitespacesAndNewlines)

        let notSyncing = CLIRunner()
        let alone = try notSyncing.ok(["new", "Alone"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let refused = try notSyncing.run(["publish", alone])
        #expect(refused.status == 1 && refused.stderr.contains("account"), "\(refused.stderr)")

        let published = try ada.ok(["publish", id])
        let link = try #require(published.firstMatch(of: /https?:\/\/\S+\/p\/[A-Za-z0-9_-]{22}#[A-Za-z0-9_-]{43}/).map { String($0.output) }, "\(published)")
        #expect(published.contains("Published “Trip plan”"), "\(published)")
        #expect(try await pageStatus(link) == 200)
        let again = try ada.run(["publish", id, "--json"]).json() as? [String: Any]
        #expect(again?["link"] as? String == link && again?["outdated"] as? Bool == false)

        // The phone sees the page on the server, without its key; it did not publish it.
        try ada.ok(["sync"])
        try phone.ok(["sync"])
        let listed = try #require(try phone.run(["publish", "--list", "--json"]).json() as? [[String: Any]])
        #expect(listed.count == 1 && listed.first?["link"] is NSNull && listed.first?["pageId"] as? String == URL(string: link)?.lastPathComponent)
        let mine = try #require(try ada.run(["publish", "--list", "--json"]).json() as? [[String: Any]])
        #expect(mine.first?["link"] as? String == link && mine.first?["title"] as? String == "Trip plan")
        let notHers = try phone.run(["unpublish", id])
        #expect(notHers.status == 1 && notHers.stderr.contains("not published from this device"), "\(notHers.stderr)")
        let neither = try phone.run(["publish"])
        #expect(neither.status == 2 && neither.stderr.contains("--list"), "\(neither.stderr)")

        #expect(try ada.ok(["unpublish", id]).contains("no longer published"))
        #expect(try await pageStatus(link) == 404)
        #expect(try ada.ok(["publish", "--list"]).contains("No page is published"))
        let twice = try ada.run(["unpublish", "--page", try #require(URL(string: link)?.lastPathComponent)])
        #expect(twice.status == 1 && twice.stderr.contains("no published page"), "\(twice.stderr)")
        // One id in 64 begins with "-"; it is still a page's id, not an option.
        let dashed = try ada.run(["unpublish", "--page", "-AAAAAAAAAAAAAAAAAAAAA"])
        #expect(dashed.status == 1 && dashed.stderr.contains("no published page"), "\(dashed.stderr)")
    }
}
