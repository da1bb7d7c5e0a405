import Foundation
import GRDB
import NoteTakerSyncProtocol

/// Batches in flight, kept in the store until their answers are applied, so that a stop at
/// any point loses no batch and no answer.
///
/// Two slots (`sync_state` keys `inflight` and `inflight2`): while the server answers one
/// batch, the next may be sent before that answer is applied. The answer is then kept too
/// (`answered`, with the request id it answers) until it is applied. Each batch is written
/// once, into the slot the other batch does not use.
extension PushBatch {
    private static let slots: [SyncState.Key] = [.inflight, .inflight2]

    /// The batch in flight without a kept answer: sent again, exactly as it was, by the next
    /// cycle.
    static func load(_ db: Database) throws -> PushBatch? {
        let answered = try answeredRequest(db)
        return try loadAll(db).first { $0.request.requestId != answered?.requestId }
    }

    /// The batch whose answer was kept but not applied, with that answer.
    static func loadAnswered(_ db: Database) throws -> (PushBatch, ModifyResponse)? {
        guard let answered = try answeredRequest(db),
              let batch = try loadAll(db).first(where: { $0.request.requestId == answered.requestId })
        else { return nil }
        return (batch, answered.response)
    }

    /// Keeps the batch as in flight, in `slot`, in the JSON of its `Codable` form (written by
    /// hand: a batch of 200 notes is written for every push).
    func save(_ db: Database) throws {
        var writer = WireWriter()
        writer.object { writer in
            writer.key("assetHashes"); writer.array(assetHashes) { $0.string($1) }
            writer.key("request"); request.write(to: &writer, fieldsJSON: fieldsJSON)
            writer.key("sequences"); writer.array(sequences) { $0.integer($1) }
        }
        try SyncState.set(db, slot, writer.text)
    }

    /// The batch, to be kept in the slot that `answered` (the batch sent before, if it is
    /// still kept) does not use.
    func placed(besides answered: PushBatch?) -> PushBatch {
        var batch = self
        batch.slot = answered.map { $0.slot == .inflight ? .inflight2 : .inflight } ?? .inflight
        return batch
    }

    /// Forgets the batch: its answer was applied, or it was refused or abandoned (its
    /// changes then stay in the outbox).
    func clear(_ db: Database) throws {
        try SyncState.set(db, slot, nil)
    }

    /// Keeps the answer to this batch until it is applied.
    func keepAnswer(_ db: Database, _ response: ModifyResponse) throws {
        var writer = WireWriter()
        writer.object { writer in
            writer.key("requestId"); writer.string(request.requestId.wireText)
            writer.key("response"); writer.raw(response.wireJSON)
        }
        try SyncState.set(db, .answered, writer.text)
    }

    static func forgetAnswer(_ db: Database) throws {
        try SyncState.set(db, .answered, nil)
    }

    /// Forgets every batch in flight and any kept answer (for another server or account).
    static func clearAll(_ db: Database) throws {
        for key in slots + [.answered] { try SyncState.set(db, key, nil) }
    }

    private static func loadAll(_ db: Database) throws -> [PushBatch] {
        try slots.compactMap { slot in
            try SyncState.get(db, slot).map { text in
                var batch = try JSONDecoder().decode(PushBatch.self, from: Data(text.utf8))
                batch.slot = slot
                return batch
            }
        }
    }

    /// The kept answer and the request it answers. One that cannot be read counts as none:
    /// its batch is then sent again, and the server answers it again, instead of every
    /// cycle stopping on it.
    private static func answeredRequest(_ db: Database) throws -> (requestId: UUID, response: ModifyResponse)? {
        guard let text = try SyncState.get(db, .answered) else { return nil }
        var requestId: UUID?, response: ModifyResponse?
        try? WireReader.read(Array(text.utf8)) { reader throws(WireJSONError) in
            try reader.object { reader, key throws(WireJSONError) in
                switch key {
                case "requestId": requestId = try reader.uuid()
                case "response": response = try ModifyResponse(wireJSON: Array(reader.rawValue().utf8))
                default: try reader.skip()
                }
            }
        }
        guard let requestId, let response else { return nil }
        return (requestId, response)
    }
}
