import Foundation
import NoteTakerSyncProtocol

/// The store's side of sync, as the engine in `NoteTakerSync` sees it: every call a cycle
/// makes, and nothing else. ``NoteStore`` is the one real implementation; the engine's own
/// logic (the order of a cycle, its restarts, its safety rails) is tested against a double.
///
/// Every call is one transaction, or a read: the engine holds no state of the store's
/// between them but the batches it is given.
package protocol SyncStore: Sendable {
    // MARK: The cycle

    /// The store's file, to take the cycle's lease on (`nil`: in memory).
    var databaseURL: URL? { get }
    /// Where attachment files are kept.
    var attachmentFiles: AttachmentFiles { get }
    /// Takes the server's id from its health answer; a different server than last time gets
    /// everything here queued to go up, and nothing deleted.
    func adoptServer(_ serverId: String) throws(NoteTakerError)
    /// Ends a cycle: remembers when it synced, and forgets the last failed cycle.
    func finishSyncCycle() throws(NoteTakerError)
    /// Remembers that a cycle failed, and why, for `sync status` (until one completes).
    func noteFailedCycle(_ error: some WordedError) throws(NoteTakerError)
    /// The hashes of attachment files notes here need and the store does not hold.
    func missingAttachmentFiles() throws(NoteTakerError) -> [String]
    /// Makes the thumbnails of images just downloaded.
    func makeThumbnails(hashes: [String]) throws(NoteTakerError)

    // MARK: Push

    /// The batches an earlier cycle sent and never had answered, oldest first.
    func inflightBatches() throws(NoteTakerError) -> [PushBatch]
    /// Forgets a batch in flight: its changes go up again from the outbox.
    func abandonPush(_ batch: PushBatch) throws(NoteTakerError)
    /// Whether the outbox holds changes that may be sent.
    func hasPushableChanges() throws(NoteTakerError) -> Bool
    /// How many changes the outbox holds that may be sent.
    func pushableChangeCount() throws(NoteTakerError) -> Int
    /// The next batch of the outbox after sequence `cursor`, and how many changes were
    /// refused as too large on the way.
    func nextPushBatch(after cursor: Int64, limit: Int) throws(NoteTakerError) -> (PushBatch?, refused: Int)
    /// Holds back the attachments whose files the server refused; returns how many.
    func holdBack(_ batch: inout PushBatch, refusedFiles: [String: SyncError]) throws(NoteTakerError) -> Int
    /// Keeps a batch as in flight before it is sent; returns it as kept.
    func beginPush(_ batch: PushBatch) throws(NoteTakerError) -> PushBatch
    /// Applies the server's answer to a batch and forgets the batch, writing what opening
    /// its sealed records found (``SealedChanges``) in the same transaction.
    func finishPush(_ batch: PushBatch, response: ModifyResponse, policy: MergePolicy, noting sealed: SealedChanges) throws(NoteTakerError) -> SyncReport
    /// Applies the answer and keeps `next` in flight, in one transaction; returns `next` as kept.
    func finishPush(
        _ batch: PushBatch, response: ModifyResponse, policy: MergePolicy, noting sealed: SealedChanges, keeping next: PushBatch
    ) throws(NoteTakerError) -> (report: SyncReport, kept: PushBatch)
    /// Counts a failed attempt of every change of a batch the server refused whole.
    func batchRefused(_ batch: PushBatch, message: String) throws(NoteTakerError)

    // MARK: Pull

    /// What to fetch next: the change token, and what this device holds.
    func changesQuery() throws(NoteTakerError) -> ChangesQuery
    /// Forgets the change token, and the authored token unless `keepingAuthoredToken`: the
    /// next pull starts from nothing.
    func resetChangeToken(keepingAuthoredToken: Bool) throws(NoteTakerError)
    /// Whether this pull starts from nothing, so its pages may be applied as they arrive.
    func pullsFromScratch() throws(NoteTakerError) -> Bool
    /// Applies a page as it came, with what opening it found; `nil`, having changed nothing,
    /// when it deletes a note here.
    func applyPage(_ page: ChangesResponse, policy: MergePolicy, noting sealed: SealedChanges) throws(NoteTakerError) -> SyncReport?
    /// Stages a page, to count its deletions before any is made, with what opening it found.
    func stage(_ page: ChangesResponse, noting sealed: SealedChanges) throws(NoteTakerError)
    /// How many notes here the staged changes would delete, and how many notes there are.
    func stagedDeletions() throws(NoteTakerError) -> (deletions: Int, notes: Int)
    /// How many staged changes wait.
    func stagedCount() throws(NoteTakerError) -> Int
    /// Applies up to `limit` staged changes; their report counts none pulled when done.
    func applyStaged(limit: Int, policy: MergePolicy, indexing: SearchIndexing) throws(NoteTakerError) -> SyncReport
    /// Adds the notes a pull left unindexed to the search index.
    func indexPendingNotes(progress: ReindexProgress?) throws(NoteTakerError)

    // MARK: A server restored, or one that purged deletions

    /// Starts catching up with a restored server that may still hold this device's change
    /// token, before the heal; false when this device fetched nothing yet.
    func catchUpBeforeHeal() throws(NoteTakerError) -> Bool
    /// Whether this device catches up with a restored server before healing.
    func catchesUpBeforeHeal() throws(NoteTakerError) -> Bool
    /// Queues everything here to go up again to a server restored from an older copy.
    func adoptRestoredServer() throws(NoteTakerError)
    /// Whether this device is healing from a restored server.
    func healsRestoredServer() throws(NoteTakerError) -> Bool
    /// Ends the heal, recording what still goes up.
    func finishRestoredServerHeal() throws(NoteTakerError)
    /// Starts listing everything again, after the server purged deletions this device missed.
    func adoptPurgedTombstones() throws(NoteTakerError)
    /// Whether a listing after a purge is under way.
    func listsAfterPurge() throws(NoteTakerError) -> Bool
    /// Crosses off the records a page of the listing holds.
    func markListed(_ page: ChangesResponse) throws(NoteTakerError)
    /// Stages a deletion of every record the listing did not hold; returns how many.
    func stageUnlistedDeletions() throws(NoteTakerError) -> Int

    // MARK: Sealed records (end-to-end encryption)

    /// The highest revisions this device has seen of `records`, those it has seen above 1
    /// (a record synced here was seen at 1 at least).
    func seenRevisions(_ records: [RecordRevision.Key]) throws(NoteTakerError) -> [RecordRevision.Key: Int]
    /// Those of `records`, in plain text, that are this device's own saves as it sent them
    /// before it adopted the account's encryption (their answer lost), with their fields as
    /// this device names them now.
    func ownPlaintextSaves(among records: [SyncRecord]) throws(NoteTakerError) -> [UUID: RecordFields]
    /// The ids of those of `changes` whose record this device had seen sealed when it found
    /// the server restored.
    func sealedBeforeRestore(among changes: [RecordChange]) throws(NoteTakerError) -> Set<UUID>
    /// Forgets the revisions of those of `records` that are deleted here.
    func forgetRevisions(ofDeleted records: [RecordRevision.Key]) throws(NoteTakerError)

    /// Where sealing the server's kept versions and files again is, after this device rotated
    /// the account's keys; `nil` when there is nothing to do.
    func resealingPass() throws(NoteTakerError) -> ResealingPass?
    /// Notes that `pass` went through a stretch whose page said `next`; the pass as it now
    /// stands (`nil`: done).
    func noteResealing(_ pass: ResealingPass, next: String?) throws(NoteTakerError) -> ResealingPass?
    /// Starts a pass over from its first stage.
    func restartResealing(_ pass: ResealingPass) throws(NoteTakerError)
    /// Whether a conversion's last step waits for tags under their new ids that notes here name.
    func waitsForRenamedTags() throws(NoteTakerError) -> Bool
    /// The hashes of the attachment files this device's notes name.
    func attachmentHashes() throws(NoteTakerError) -> [String]

    // MARK: Notes moved in from another zone (docs/sharing.md §3.5)

    /// The notes moved here whose history the server holding them is still to be given.
    func movedHistoriesToSend() throws(NoteTakerError) -> [UUID]
    /// A moved note's versions, in plain text, as the server keeps a note's.
    func movedHistory(_ noteId: UUID) throws(NoteTakerError) -> [MovedVersion]
    /// Forgets that a moved note's history is to be given to the server.
    func sentMovedHistory(_ noteId: UUID) throws(NoteTakerError)
}

extension NoteStore: SyncStore {}
