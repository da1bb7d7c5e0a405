import Foundation
import NoteTakerKit

/// The parts of one Google Takeout: Takeout splits a large export into `takeout-STAMP-001.zip`,
/// `-002.zip`…, and a note's picture may be in another part than its note. Each part is read in
/// place and checked as every archive is; their files are seen as one.
enum TakeoutParts {
    /// Opens the parts `url` stands for: the zips of a folder of Takeout parts, every part
    /// beside a part named as Takeout names them, or that zip alone.
    static func open(_ url: URL) throws(InterchangeError) -> ZipParts {
        var zips: [ZipReader] = []
        for part in partURLs(url) { zips.append(try ZipReader(url: part)) }
        return ZipParts(zips)
    }

    /// Whether `name` is named as Takeout names its parts (`takeout-20261126T101500Z-001.zip`).
    static func isPartName(_ name: String) -> Bool {
        partPrefix(name) != nil
    }

    /// Whether the folder at `url` holds Takeout parts and nothing else (hidden files aside).
    static func isPartsFolder(_ url: URL) -> Bool {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).filter { !$0.hasPrefix(".") }
        return !names.isEmpty && names.allSatisfy(isPartName)
    }

    /// The zips `url` stands for, in order.
    static func partURLs(_ url: URL) -> [URL] {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).filter(isPartName).sorted()
            return names.map { url.appendingPathComponent($0) }
        }
        guard let prefix = partPrefix(url.lastPathComponent) else { return [url] }
        let folder = url.deletingLastPathComponent()
        let siblings = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { partPrefix($0) == prefix }
        return siblings.sorted().map { folder.appendingPathComponent($0) }
    }

    /// `takeout-STAMP-` of a part's name, `nil` when `name` is not one (`takeout-`, then a stamp,
    /// `-`, three digits or more, `.zip`).
    private static func partPrefix(_ name: String) -> String? {
        let lowered = name.lowercased()
        guard lowered.hasPrefix("takeout-"), lowered.hasSuffix(".zip") else { return nil }
        let stem = lowered.dropLast(4)
        guard let dash = stem.lastIndex(of: "-"), dash > stem.index(stem.startIndex, offsetBy: 7) else { return nil }
        let number = stem[stem.index(after: dash)...]
        guard number.count >= 3, number.allSatisfy(\.isASCII), number.allSatisfy(\.isNumber) else { return nil }
        return String(stem[...dash])
    }
}
