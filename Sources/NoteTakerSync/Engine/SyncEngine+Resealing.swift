import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol

/// Sealing the note versions and the files the server keeps again with the newest data key,
/// after this device rotated the account's keys (docs/encryption.md §2.3), or sealing them
/// for the first time after it converted the account to encryption (§2.4): the last step of a
/// cycle, a stretch of the server's versions or files at a time, remembered after each so
/// that a pass cut short goes on where it stopped.
extension SyncEngine {
    /// Seals again everything the server lists as sealed below the pass's key: each version
    /// is opened, sealed at the same revision with the newest key and put back under its change
    /// tag; each file this device holds is sealed anew and put back at its address. A version
    /// that does not open (changed on the server), or a file this device does not hold, is left
    /// as it is; one gone meanwhile, or sealed anew by another device, needs nothing more.
    func resealKept(into report: inout SyncReport) async throws(SyncError) {
        guard let sealing = options.sealing, var pass = try local({ try $0.resealingPass() }),
              pass.below <= sealing.newestKeyVersion else { return }
        var files: [String: String]?
        while true {
            let next: String?
            switch pass.stage {
            case .versions:
                let page = try await transport.keptVersions(sealedBelow: pass.below, after: pass.after)
                for version in page.versions where try await reseal(version, with: sealing, converting: pass.converts) {
                    report.resealedVersions += 1
                }
                next = page.next
            case .files:
                let page = try await transport.keptFiles(sealedBelow: pass.below, after: pass.after)
                if files == nil { files = try fileHashes(by: sealing) }
                let hashes = files ?? [:]
                for address in page.addresses {
                    guard let hash = hashes[address], try await resealFile(hash, at: address) else { continue }
                    report.resealedFiles += 1
                }
                next = page.next
            case .plaintext:
                // A note here names a tag under its new id that has not arrived, or the server
                // holds a tag under its old id only: the device that held it sends it once it
                // has fetched everything. Dropped now, its old id would go with nothing in its
                // place, and a device following the conversion would take the tag for one
                // deleted before it. The next sync looks again, unless the server holds nothing
                // in plain text any more (another device finished the conversion; a copy held
                // here is then of a tag gone).
                if try local({ try $0.waitsForRenamedTags() }), (try await transport.accountStatus().unsealedRecords ?? 0) > 0 { return }
                do {
                    _ = try await transport.dropPlaintext()
                } catch .server(let code, _) where code == APIErrorCode.unsealedRecords.rawValue {
                    // A record is not sealed yet (a save refused, or a batch cut short): the
                    // next sync sends it, and goes through the versions it left behind again.
                    try local { try $0.restartResealing(pass) }
                    return
                }
                report.conversionFinished = true
                next = nil
            }
            guard let advanced = try local({ try $0.noteResealing(pass, next: next) }), advanced.below <= sealing.newestKeyVersion else { return }
            pass = advanced
        }
    }

    /// Seals one kept version again and puts it back; whether the server took it. While
    /// `converting` the account to encryption, a version kept in plain text is sealed, at
    /// revision 1 (kept versions are not held to a record's revisions); at any other time one
    /// is left as it is: a server that made it up gets no seal on it.
    private func reseal(_ version: KeptVersion, with sealing: any RecordSealer, converting: Bool) async throws(SyncError) -> Bool {
        let type = SyncRecordType.note.rawValue
        let plain: (fields: RecordFields, revision: Int)
        if converting, !version.fields.isSealed {
            plain = (version.fields, 1)
        } else if case .success(let opened) = sealing.open(version.fields, recordType: type, recordId: version.recordId, seen: nil) {
            plain = opened
        } else {
            return false
        }
        guard let sealed = try? sealing.seal(
            fieldsJSON: plain.fields.wireJSON, recordType: type, recordId: version.recordId, revision: plain.revision,
            salt: SealedRecord.randomSalts(1)[0])
        else { return false }
        return try await acceptedUnlessDone { () async throws(SyncError) in
            try await transport.resealVersion(version.recordId, ResealedVersion(changeTag: version.changeTag, fields: sealed.fields))
        }
    }

    /// Seals the file this device holds with SHA-256 `hash` again and puts it back at
    /// `address`; whether the server took it.
    private func resealFile(_ hash: String, at address: String) async throws(SyncError) -> Bool {
        let file = store.attachmentFiles.url(forHash: hash)
        guard FileManager.default.fileExists(atPath: file.path) else { return false }
        return try await acceptedUnlessDone { () async throws(SyncError) in try await upload(file, to: address, resealed: true) }
    }

    /// The SHA-256 of each attachment file this device's notes name, by the address the
    /// server keeps it under.
    private func fileHashes(by sealing: any RecordSealer) throws(SyncError) -> [String: String] {
        var hashes: [String: String] = [:]
        for hash in try local({ try $0.attachmentHashes() }) {
            if let address = sealing.fileAddress(forHash: hash) { hashes[address] = hash }
        }
        return hashes
    }

    /// Whether a replacement was taken: `false` when the server no longer holds what it
    /// replaces, or holds it sealed anew already.
    private func acceptedUnlessDone(_ replace: () async throws(SyncError) -> Void) async throws(SyncError) -> Bool {
        do {
            try await replace()
            return true
        } catch .server(let code, _) where code == APIErrorCode.notFound.rawValue || code == APIErrorCode.sealedAlready.rawValue {
            return false
        }
    }
}
