import Foundation
import NoteTakerKit

/// The one file of an export that holds all its notes (Simplenote's `notes.json`, a Standard
/// Notes backup's `.txt`): read from the export's zip, in place, or given alone.
enum ExportFile {
    /// The bytes of the first file in the zip at `input` whose path `matches`, or of `input`
    /// itself when it is not `zipped`; a file over `maximumSize` is refused.
    static func data(of input: URL, zipped: Bool, matching matches: (String) -> Bool, maximumSize: Int64) throws(InterchangeError) -> Data {
        if zipped {
            let zip = try ZipReader(url: input)
            guard let file = zip.files.first(where: { matches($0.path) }) else { throw .unknownKind(path: input.path) }
            guard file.size <= maximumSize else { throw .badExport(path: input.path, reason: Wording("reasonFileTooLarge")) }
            return try zip.data(file)
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: input.path)[.size] as? Int64) ?? 0
        guard size <= maximumSize else { throw .badExport(path: input.path, reason: Wording("reasonFileTooLarge")) }
        guard let data = FileManager.default.contents(atPath: input.path) else {
            throw .unreadable(path: input.path, reason: Wording("reasonCannotOpen"))
        }
        return data
    }
}
