import Foundation

/// Several zips read as one export (the parts of a Google Takeout, of a Notion export): every
/// file of every part, each read in place from the part that holds it.
struct ZipParts {
    /// Every file of every part, the parts in order.
    let files: [(zip: ZipReader, file: ZipReader.File)]
    private let index: [String: Int]

    /// The files of `zips`, in order; a path in two parts is read from the later one.
    init(_ zips: [ZipReader]) {
        files = zips.flatMap { zip in zip.files.map { (zip, $0) } }
        index = Dictionary(files.enumerated().map { ($1.file.path, $0) }, uniquingKeysWith: { $1 })
    }

    /// The file at `path`, in whichever part holds it.
    func file(_ path: String) -> (zip: ZipReader, file: ZipReader.File)? {
        index[path].map { files[$0] }
    }
}
