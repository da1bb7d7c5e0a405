import Foundation
@testable import NoteTakerKit
import NoteTakerSyncProtocol
import Testing

@Suite("Batches bounded by bytes")
struct BatchBytesTests {
    @Test("long notes go up in batches that fit the server's request limit, and come down whole")
    func longNotes() async throws {
        try await withDevices(2) { devices, _ in
            // 60 notes of 200 kB: 12 MB, over the 8 MB a request may carry, in fewer notes
            // than a batch holds.
            let paragraph = String(repeating: "Long minutes of a long meeting, kept whole. ", count: 4_600)
            for index in 0..<60 {
                _ = try devices[0].store.createNote(NoteDraft(title: "Minutes \(index)", body: "\(index) \(paragraph)"))
            }
            let report = try await devices[0].sync()
            #expect(report.pushed == 60)
            #expect(report.errors == 0)
            try await devices[1].sync()
            let received = try devices[1].allNotes()
            #expect(received.count == 60)
            #expect(received.allSatisfy { $0.body.hasSuffix(paragraph) })
        }
    }
}
