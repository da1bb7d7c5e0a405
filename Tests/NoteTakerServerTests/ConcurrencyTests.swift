import Foundation
import NoteTakerServer
import NoteTakerServerTestSupport
import NoteTakerSyncProtocol
import Testing

/// Batches of one account arriving at once, through one node or (on PostgreSQL) two: each
/// applies whole, one after the other, and the changes feed has every record once, in order.
@Suite("Concurrent batches")
struct ConcurrencyTests {
    @Test("batches sent at once to every node are all applied, with distinct, gapless change tags")
    func concurrentBatches() async throws {
        let first = try await TestServer()
        let nodes = TestStorage.usesPostgres ? [first, try await TestServer(sharing: first)] : [first]
        let session = try await first.service.register(Credentials(username: "ada", password: "correct horse"))
        let account = try await first.service.authenticate(token: session.token)
        let shared = UUID()
        _ = try await first.service.modify(ModifyRequest(requestId: UUID(), changes: [noteSave(shared, title: "Shared")]), for: account)
        let batches = 16, perBatch = 25
        let responses = try await withThrowingTaskGroup(of: ModifyResponse.self) { group in
            for index in 0..<batches {
                let service = nodes[index % nodes.count].service
                // Every batch also edits the shared note from the same base: exactly one wins.
                let changes = (0..<perBatch).map { noteSave(title: "Batch \(index) note \($0)") } + [noteSave(shared, title: "Edit \(index)", base: "1")]
                group.addTask { try await service.modify(ModifyRequest(requestId: UUID(), changes: changes), for: account) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let saved = responses.flatMap(\.results).filter { $0.outcome == .saved }
        let conflicts = responses.flatMap(\.results).filter { $0.outcome == .serverRecordChanged }
        #expect(saved.count == batches * perBatch + 1, "every new note and one edit of the shared note")
        #expect(conflicts.count == batches - 1 && conflicts.allSatisfy { $0.recordId == shared })
        let tags = saved.compactMap { $0.changeTag.flatMap { Int64($0) } }.sorted()
        #expect(tags == Array(2...Int64(batches * perBatch + 2)), "change tags are distinct and leave no gap")

        var records: [SyncRecord] = []
        var since: String?
        repeat {
            let page = try await nodes.last!.service.changes(for: account, ChangesQuery(since: since), limit: 100)
            records += page.records
            since = page.token
            if !page.moreComing { break }
        } while true
        #expect(records.count == batches * perBatch + 1)
        #expect(Set(records.map(\.recordId)).count == records.count)
        let order = records.compactMap { Int64($0.changeTag) }
        #expect(order == order.sorted(), "the feed is in change order")
    }
}
