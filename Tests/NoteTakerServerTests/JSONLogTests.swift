import Foundation
import Logging
import Testing

@testable import NoteTakerServer

/// `--log-format json`: one object per line, with the metadata as fields.
@Suite struct JSONLogTests {
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func append(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }

    @Test func eachLineIsAnObject() throws {
        let lines = Lines()
        var logger = Logger(label: "notetaker-server") { label in JSONLogHandler(label: label) { lines.append($0) } }
        logger.logLevel = .info
        logger.info("request", metadata: ["method": "GET", "route": "/v1/changes", "status": "200"])
        logger.debug("not written below info")
        logger.error("a \"quoted\"\nmessage")
        #expect(lines.all.count == 2)
        let first = try #require(try JSONSerialization.jsonObject(with: Data(lines.all[0].utf8)) as? [String: String])
        #expect(first["message"] == "request" && first["level"] == "info" && first["logger"] == "notetaker-server")
        #expect(first["route"] == "/v1/changes" && first["status"] == "200" && first["time"]?.hasSuffix("Z") == true)
        #expect(lines.all.allSatisfy { $0.hasSuffix("\n") && $0.dropLast().contains("\n") == false })
        let second = try #require(try JSONSerialization.jsonObject(with: Data(lines.all[1].utf8)) as? [String: String])
        #expect(second["message"] == "a \"quoted\"\nmessage")
    }
}
