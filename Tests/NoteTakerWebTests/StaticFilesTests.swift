import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import NoteTakerWeb

/// The page's files come from the executable itself (the EmbedFiles plugin), served the way
/// Hummingbird serves a folder: types, revalidation, ranges, and nothing outside the page.
@Suite struct StaticFilesTests {
    @Test func thePageIsBuiltIntoTheExecutable() throws {
        let source = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/NoteTakerWeb")
        for name in ["Public/index.html", "Public/js/app.js", "Public/strings/fr.json", "openapi.json"] {
            let built = try #require(EmbeddedFiles.files[name], "\(name) is not embedded")
            #expect(built == (try Data(contentsOf: source.appendingPathComponent(name))), "\(name) differs from its source")
        }
    }

    @Test func filesAreServedWithTheirTypeAndRevalidated() async throws {
        try await WebTestApp().test { client in
            let script = try await client.send(.get, "/js/app.js")
            #expect(script.status == .ok)
            #expect(script.headers[.contentType]?.contains("javascript") == true)
            #expect(script.headers[.cacheControl] == "no-cache")
            let tag = try #require(script.headers[.eTag])
            let again = try await client.send(.get, "/js/app.js", headers: [.ifNoneMatch: tag])
            #expect(again.status == .notModified)
            #expect(again.body.readableBytes == 0)

            let style = try await client.send(.get, "/app.css", headers: [.range: "bytes=0-9"])
            #expect(style.status == .partialContent)
            #expect(style.body.readableBytes == 10)
        }
    }

    @Test func folderAddressesAndMissingFiles() async throws {
        try await WebTestApp().test { client in
            let page = try await client.send(.get, "/")
            #expect(page.status == .ok)
            #expect(String(buffer: page.body).contains("<html"))
            let folder = try await client.send(.get, "/strings")
            #expect(folder.status == .movedPermanently || folder.status == .found || folder.status == .seeOther)
            #expect(folder.headers[.location] == "/strings/")
            for uri in ["/nope.js", "/js/nope.js", "/embedded-files.txt", "/openapi.json"] {
                let missing = try await client.send(.get, uri)
                #expect(missing.status == .notFound, "\(uri)")
            }
            for uri in ["/../openapi.json", "/%2e%2e/openapi.json", "/js/../../openapi.json"] {
                let climbing = try await client.send(.get, uri)
                #expect(climbing.status == .badRequest || climbing.status == .notFound, "\(uri)")
            }
        }
    }
}
