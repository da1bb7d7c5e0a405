import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol

/// The history of a note moved into this zone from another (docs/sharing.md §3.5), given to
/// the server once the note is there: the versions the moving device took along, each sealed
/// as the zone's records are, kept by the server with the note's own versions, so that every
/// device of the zone reads them (the zone the note left dropped its own with the note).
extension SyncEngine {
    /// For each note moved here that the server now holds, sends its versions (at most
    /// ``MovedVersions/maximumCount`` and about half a request's bytes at a time) and forgets
    /// it. A version too large to be a record is left out. A history the server refuses (the
    /// note gone from it meanwhile, a version it will not take) or an account that may no
    /// longer write the zone gives none. The network or the server failing otherwise (down,
    /// storage full) stops the step until the next cycle, which sends it all again (the server
    /// keeps no version twice): never the cycle, whose notes went up already.
    func sendMovedHistories() async throws(SyncError) {
        for noteId in try local({ try $0.movedHistoriesToSend() }) {
            let versions: [MovedVersion]
            do {
                versions = try sealed(try local { try $0.movedHistory(noteId) }, of: noteId)
            } catch .viewOnlyShare {
                try local { try $0.sentMovedHistory(noteId) }
                continue
            }
            do {
                for request in Self.requests(versions) { _ = try await transport.addVersions(noteId, request) }
            } catch .server {
                // Refused for good (the note left the server before its history went up, or a
                // version is one the server will not take): sending it again would change nothing.
            } catch {
                return
            }
            try local { try $0.sentMovedHistory(noteId) }
        }
    }

    /// `versions` sealed for this zone (as they are, for an account without encryption).
    private func sealed(_ versions: [MovedVersion], of noteId: UUID) throws(SyncError) -> [MovedVersion] {
        guard let sealing = options.sealing else { return versions }
        let salts = SealedRecord.randomSalts(versions.count)
        var sealed: [MovedVersion] = []
        for (version, salt) in zip(versions, salts) {
            do {
                // Revision 1: served as a current record, a version is older than any seen.
                let envelope = try sealing.seal(fieldsJSON: version.fields.wireJSON, recordType: SyncRecordType.note.rawValue,
                                                recordId: noteId, revision: 1, salt: salt)
                sealed.append(MovedVersion(replacedAt: version.replacedAt, fields: envelope.fields))
            } catch ZoneRecordSealing.WriteRefusal.mayNotWrite {
                throw .viewOnlyShare
            } catch {
                throw .store(.database("A version of note \(noteId.key) could not be encrypted (\(error)); nothing was sent."))
            }
        }
        return sealed
    }

    /// `versions` in requests the server takes: at most ``MovedVersions/maximumCount`` each,
    /// and about half of ``SyncLimits/maxRequestBytes``; one larger than a record is left out.
    static func requests(_ versions: [MovedVersion]) -> [MovedVersions] {
        var requests: [MovedVersions] = []
        var current: [MovedVersion] = []
        var bytes = 0
        for version in versions {
            let size = version.fields.wireJSON.utf8.count
            guard size <= SyncLimits.maxRecordBytes else { continue }
            if current.count == MovedVersions.maximumCount || (!current.isEmpty && bytes + size > SyncLimits.maxRequestBytes / 2) {
                requests.append(MovedVersions(versions: current))
                (current, bytes) = ([], 0)
            }
            current.append(version)
            bytes += size
        }
        if !current.isEmpty { requests.append(MovedVersions(versions: current)) }
        return requests
    }
}
