import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol

/// Sealing the note versions the server keeps again with the newest data key, after this
/// device rotated the account's keys (docs/encryption.md §2.3): the last step of a cycle,
/// a stretch of the server's versions at a time, remembered after each so that a pass cut
/// short goes on where it stopped.
extension SyncEngine {
    /// Seals again every kept version the server lists as sealed below the pass's key: each
    /// is opened, sealed at the same revision with the newest key and put back under its
    /// change tag. A version that does not open (changed on the server) is left as it is;
    /// one gone meanwhile (its note purged, or thinned out), or sealed anew by another device,
    /// needs nothing more.
    func resealKeptVersions(into report: inout SyncReport) async throws(SyncError) {
        guard let sealing = options.sealing, let pass = try local({ try $0.versionResealing() }),
              pass.below <= sealing.keyring.newestVersion else { return }
        var after = pass.after
        repeat {
            let page = try await transport.keptVersions(sealedBelow: pass.below, after: after)
            for version in page.versions where try await reseal(version, with: sealing) {
                report.resealedVersions += 1
            }
            after = page.next
            try local { store in try store.noteVersionResealing(pass, next: after) }
        } while after != nil
    }

    /// Seals one kept version again and puts it back; whether the server took it.
    private func reseal(_ version: KeptVersion, with sealing: RecordSealing) async throws(SyncError) -> Bool {
        let type = SyncRecordType.note.rawValue
        guard case .success(let (fields, revision)) = sealing.open(version.fields, recordType: type, recordId: version.recordId, seen: nil),
              let sealed = try? sealing.seal(fieldsJSON: fields.wireJSON, recordType: type, recordId: version.recordId, revision: revision)
        else { return false }
        do {
            try await transport.resealVersion(version.recordId, ResealedVersion(changeTag: version.changeTag, fields: sealed.fields))
            return true
        } catch .server(let code, _) where code == APIErrorCode.notFound.rawValue || code == APIErrorCode.sealedAlready.rawValue {
            return false
        }
    }
}
