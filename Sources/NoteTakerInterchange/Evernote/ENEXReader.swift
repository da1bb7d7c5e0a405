import Foundation
import NoteTakerKit
#if canImport(FoundationXML)
import FoundationXML
#endif

/// One note of an `.enex` file as read, before its ENML is converted.
struct ENEXNote {
    /// A `<resource>`: its bytes already decoded into a temporary file.
    struct Resource {
        var file: Base64FileWriter
        var md5 = ""
        var mime = ""
        var fileName: String?
    }

    /// A task of Evernote's Tasks (2021 and later): written beside the content, which holds
    /// only a placeholder for its group.
    struct Task {
        var title = ""
        var isDone = false
        /// The group's id, as the content's placeholder names it (`--en-id`).
        var group = ""
        /// Evernote's order within the group (compared as text).
        var sortWeight = ""
    }

    var title = ""
    var content = ""
    var tasks: [Task] = []
    var created: Date?
    var updated: Date?
    var tags: [String] = []
    /// The `<note-attributes>` (author, source-url, latitude…), by element name, in order.
    var attributes: [(name: String, value: String)] = []
    var resources: [Resource] = []
    /// Whether the note's text was over ``ENEXReader/maximumTextLength`` (and so not kept).
    var contentTooLong = false
    /// The note's 1-based position in the file.
    var position: Int
}

/// Streams an `.enex` file (Evernote's export) through the XML parser, handing over each
/// note as soon as it ends. Resource data is decoded to temporary files as it arrives.
final class ENEXReader: NSObject, XMLParserDelegate {
    /// Largest text kept for one element: a note body's limit and room for markup.
    static let maximumTextLength = 32 << 20

    private let temporaryFolder: URL
    private let onNote: (ENEXNote) -> Void
    private var note: ENEXNote?
    private var resource: ENEXNote.Resource?
    private var path: [String] = []
    private var task: ENEXNote.Task?
    private var text = ""
    private var textTooLong = false
    private var count = 0
    /// Whether the root element was `<en-export>`.
    private(set) var sawExportRoot = false
    /// Whether the root element ended (a file cut short never gets there).
    private(set) var sawEnd = false
    /// The title of a note cut off by a parse error, when there is one.
    var unfinishedNote: ENEXNote? { note }

    init(temporaryFolder: URL, onNote: @escaping (ENEXNote) -> Void) {
        self.temporaryFolder = temporaryFolder
        self.onNote = onNote
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        path.append(name)
        text = ""
        textTooLong = false
        switch name {
        case "en-export" where path.count == 1: sawExportRoot = true
        case "note" where path.count == 2:
            count += 1
            note = ENEXNote(position: count)
        case "task" where note != nil && path.count == 3:
            task = ENEXNote.Task()
        case "resource" where note != nil:
            resource = ENEXNote.Resource(file: Base64FileWriter(url: temporaryFolder.appendingPathComponent(UUID().uuidString)))
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if path.last == "data", resource != nil {
            resource?.file.append(string)
        } else if text.utf8.count + string.utf8.count <= Self.maximumTextLength {
            text += string
        } else {
            textTooLong = true
        }
    }

    func parser(_ parser: XMLParser, foundCDATA block: Data) {
        self.parser(parser, foundCharacters: String(decoding: block, as: UTF8.self))
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        defer {
            path.removeLast()
            text = ""
        }
        if path.count == 1 { sawEnd = true }
        guard note != nil else { return }
        let parent = path.dropLast().last
        switch (name, parent) {
        case ("title", "note"): note?.title = text.trimmingCharacters(in: .whitespacesAndNewlines)
        case ("content", "note"):
            note?.content = textTooLong ? "" : text
            note?.contentTooLong = textTooLong
        case ("created", "note"): note?.created = Self.date(text)
        case ("updated", "note"): note?.updated = Self.date(text)
        case ("tag", "note"): note?.tags.append(text.trimmingCharacters(in: .whitespacesAndNewlines))
        case ("title", "task"): task?.title = text.trimmingCharacters(in: .whitespacesAndNewlines)
        case ("taskStatus", "task"): task?.isDone = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() == "completed"
        case ("taskGroupNoteLevelID", "task"): task?.group = text.trimmingCharacters(in: .whitespacesAndNewlines)
        case ("sortWeight", "task"): task?.sortWeight = text.trimmingCharacters(in: .whitespacesAndNewlines)
        case ("task", "note"):
            if let task { note?.tasks.append(task) }
            task = nil
        case (_, "note-attributes") where path.count == 4:
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !value.isEmpty { note?.attributes.append((name, value)) }
        case ("mime", "resource"): resource?.mime = text.trimmingCharacters(in: .whitespacesAndNewlines)
        case ("file-name", "resource-attributes"): resource?.fileName = text.trimmingCharacters(in: .whitespacesAndNewlines)
        case ("data", "resource"):
            if var finished = resource {
                finished.md5 = finished.file.finish()
                resource = finished
            }
        case ("resource", "note"):
            if let resource { note?.resources.append(resource) }
            resource = nil
        case ("note", _) where path.count == 2:
            if let note { onNote(note) }
            note = nil
        default: break
        }
    }

    /// Evernote's dates: `20231015T083000Z`.
    static func date(_ text: String) -> Date? {
        let digits = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard digits.count == 16 else { return Timestamp.date(from: digits) }
        let iso = "\(digits.prefix(4))-\(digits.dropFirst(4).prefix(2))-\(digits.dropFirst(6).prefix(2))T"
            + "\(digits.dropFirst(9).prefix(2)):\(digits.dropFirst(11).prefix(2)):\(digits.dropFirst(13).prefix(2))Z"
        return Timestamp.date(from: iso)
    }
}
