import Crypto
import Foundation
import NoteTakerSyncProtocol
import NoteTakerKit

/// Decodes base64 text arriving in pieces straight into a file, with the MD5 (Evernote's
/// name for a resource) and size of the bytes, so a resource of any size takes flat memory.
struct Base64FileWriter {
    let url: URL
    private let handle: FileHandle?
    private var pending: [UInt8] = []
    private var md5 = Insecure.MD5()
    private(set) var size: Int64 = 0
    /// What went wrong, if anything (the resource, and so its note, is then refused).
    private(set) var problem: Wording?

    init(url: URL) {
        self.url = url
        handle = OwnerOnly.createFile(at: url) ? FileHandle(forWritingAtPath: url.path) : nil
        if handle == nil { problem = Wording("attachmentNoTemporaryFile", ["folder": url.deletingLastPathComponent().path]) }
    }

    /// Adds base64 text (whitespace is ignored).
    mutating func append(_ text: String) {
        guard problem == nil else { return }
        for byte in text.utf8 where !(byte == 32 || byte == 9 || byte == 10 || byte == 13) { pending.append(byte) }
        if pending.count >= 1 << 16 { decode(final: false) }
    }

    /// Decodes the rest and closes the file; returns the lowercase hex MD5.
    mutating func finish() -> String {
        decode(final: true)
        try? handle?.close()
        return md5.finalize().lowercaseHex
    }

    private mutating func decode(final: Bool) {
        guard problem == nil else { return }
        let usable = final ? pending.count : pending.count - pending.count % 4
        guard usable > 0 else { return }
        guard let bytes = Data(base64Encoded: Data(pending[..<usable])) else {
            problem = Wording("attachmentNotBase64")
            return
        }
        pending.removeFirst(usable)
        size += Int64(bytes.count)
        guard size <= Attachment.maximumSize else {
            problem = Wording("attachmentOverLimit")
            return
        }
        md5.update(data: bytes)
        do {
            try handle?.write(contentsOf: bytes)
        } catch {
            problem = Wording("attachmentCopyFailed", ["reason": error.localizedDescription])
        }
    }
}
