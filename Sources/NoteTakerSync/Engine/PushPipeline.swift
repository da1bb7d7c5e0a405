import NoteTakerKit
import NoteTakerSyncProtocol

/// The push's order of work as a state machine, decided without a store or a network
/// (swift-nio's style): which batch of the outbox to read, start, send along, or wait for,
/// and how to apply an answer. ``SyncEngine`` carries out each ``Action`` and reports back.
///
/// Two batches are in flight at a time: while the server answers one, the next is read,
/// kept and sent. A batch holding a record of one in flight waits for that answer (it would
/// go up against an old change tag), and so does one that needs files uploaded first. A
/// clean answer (every change saved as sent) is applied in the same transaction that keeps
/// the batch after it; after an answer that merged or refused anything, or that shares a
/// record with the batch read next, the outbox is read again.
struct PushPipeline {
    /// What the engine does next.
    enum Action {
        /// Read the outbox's next batch after ``cursor``, then call ``read(_:)``.
        case read
        /// Upload the batch's files, hold back the attachments whose files the server
        /// refuses, keep the batch and send it, then call ``sent(_:)``; or, when nothing is
        /// left of it, ``emptied()``.
        case start(PushBatch)
        /// Keep the batch and send it while the one before is answered, then call ``sent(_:)``.
        case sendAlong(PushBatch)
        /// Wait for the answer to this batch (the oldest in flight), then call ``answered(_:)``.
        case awaitAnswer(PushBatch)
        /// Apply this clean answer to the batch; with `keeping`, keep that batch in the same
        /// transaction, send it and call ``sent(_:)``; alone, call ``finished()``.
        case finish(PushBatch, ModifyResponse, keeping: PushBatch?)
        /// Apply an answer to the batch that merged or refused something, or a failure, then
        /// call ``settled(clean:)``.
        case settle(PushBatch, Result<ModifyResponse, SyncError>)
        /// Nothing is left to send or to wait for.
        case done
    }

    private indirect enum Phase {
        /// Choosing what to start, send along or wait for.
        case ready
        /// Waiting for ``read(_:)``, then going on as `then`.
        case reading(then: Phase)
        /// Waiting for the engine to report the action just returned done; then going on as `then`.
        case working(then: Phase)
        /// Waiting for an answer to be settled: the batch read next shares a record with it
        /// (`overlaps`), so it is read again whatever the answer.
        case settling(overlaps: Bool)
        /// An answer came for the batch, every change saved as sent.
        case answeredClean(PushBatch, ModifyResponse)
        /// An answer came for the batch that merged or refused something, or the request failed.
        case answered(PushBatch, Result<ModifyResponse, SyncError>)
    }

    /// The newest outbox entry in a batch sent: the next batch is read after it.
    private(set) var cursor: Int64 = 0
    /// The batches sent and not answered yet, oldest first.
    private(set) var inFlight: [PushBatch] = []
    /// How many changes were answered.
    private(set) var done = 0
    /// The batch read and not sent yet.
    private var upcoming: PushBatch?
    private var phase = Phase.reading(then: .ready)
    /// After a clean answer: whether the next batch was read since.
    private var readAfterAnswer = false

    /// The next thing to do.
    mutating func next() -> Action {
        switch phase {
        case .reading:
            return .read
        case .working, .settling:
            // The engine has not reported the last action: nothing else can start.
            return .done
        case .ready:
            if inFlight.isEmpty {
                guard let batch = upcoming else { return .done }
                take(batch, then: .reading(then: .ready))
                return .start(batch)
            }
            if inFlight.count == 1, let following = upcoming, Self.mayFollow(following, inFlight[0]) {
                take(following, then: .ready)
                return .sendAlong(following)
            }
            phase = .working(then: .ready)
            return .awaitAnswer(inFlight[0])
        case .answeredClean(let batch, let response):
            if upcoming == nil, !readAfterAnswer {
                readAfterAnswer = true
                phase = .reading(then: .answeredClean(batch, response))
                return .read
            }
            readAfterAnswer = false
            done += batch.request.changes.count
            // A record of the answered batch, edited meanwhile: read with its new change tag.
            let shared = upcoming.map { batch.sharesRecords(with: $0) } ?? false
            if let after = upcoming, !shared, after.assetHashes.isEmpty, !inFlight.contains(where: { $0.sharesRecords(with: after) }) {
                take(after, then: .ready)
                return .finish(batch, response, keeping: after)
            }
            phase = .working(then: shared ? .reading(then: .ready) : .ready)
            return .finish(batch, response, keeping: nil)
        case .answered(let batch, let result):
            done += batch.request.changes.count
            phase = .settling(overlaps: upcoming.map { batch.sharesRecords(with: $0) } ?? false)
            return .settle(batch, result)
        }
    }

    /// The batch read (`nil`: the outbox holds nothing more to send).
    mutating func read(_ batch: PushBatch?) {
        guard case .reading(let then) = phase else { return }
        upcoming = batch
        phase = then
    }

    /// The batch returned by ``Action/start(_:)``, ``Action/sendAlong(_:)`` or
    /// ``Action/finish(_:_:keeping:)`` was kept and sent (as `batch`: kept, it holds what it
    /// had when kept).
    mutating func sent(_ batch: PushBatch) {
        guard case .working(let then) = phase else { return }
        inFlight.append(batch)
        phase = then
    }

    /// Nothing was left of the batch to start: every change was held back.
    mutating func emptied() {
        guard case .working(let then) = phase else { return }
        phase = then
    }

    /// The answer to the oldest batch in flight came (or its request failed).
    mutating func answered(_ result: Result<ModifyResponse, SyncError>) {
        guard case .working = phase, !inFlight.isEmpty else { return }
        let batch = inFlight.removeFirst()
        if case .success(let response) = result, response.results.allSatisfy({ $0.outcome == .saved }) {
            phase = .answeredClean(batch, response)
        } else {
            phase = .answered(batch, result)
        }
    }

    /// A clean answer was applied alone (``Action/finish(_:_:keeping:)`` without a batch to keep).
    mutating func finished() {
        guard case .working(let then) = phase else { return }
        phase = then
    }

    /// An answer was applied by ``Action/settle(_:_:)``; `clean` when every change was saved
    /// as sent. After a merge or a refusal, the outbox is read again.
    mutating func settled(clean: Bool) {
        guard case .settling(let overlaps) = phase else { return }
        phase = !clean || overlaps ? .reading(then: .ready) : .ready
    }

    /// Whether `batch` may be sent while `inFlight` is answered: it needs no file uploaded
    /// first, and holds no record of `inFlight`.
    static func mayFollow(_ batch: PushBatch, _ inFlight: PushBatch) -> Bool {
        batch.assetHashes.isEmpty && !inFlight.sharesRecords(with: batch)
    }

    /// Takes the batch read to send it (the next one is read after it); the engine reports
    /// it sent, then the pipeline goes on as `then`.
    private mutating func take(_ batch: PushBatch, then: Phase) {
        cursor = batch.sequences.max() ?? cursor
        upcoming = nil
        phase = .working(then: then)
    }
}
