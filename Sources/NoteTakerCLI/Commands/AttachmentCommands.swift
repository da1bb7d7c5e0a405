import ArgumentParser
import Foundation
import NoteTakerKit

struct AttachCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attach", abstract: "Attach a file to a note (copied into the store; 250 MB at most).")

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var note: NoteArgument
    @Argument(help: "The file to attach.") var file: String

    func run() throws {
        let store = try storeOptions.open()
        let attachment = try store.attachFile(at: URL(fileURLWithPath: file), toNote: try note.resolve(in: store))
        print(attachment.id.key)
    }
}

struct AttachmentsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "attachments", abstract: "List a note's attachments.")

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var note: NoteArgument
    @OptionGroup var output: JSONFlag

    func run() throws {
        let store = try storeOptions.openForReading()
        let attachments = try store.attachments(noteId: try note.resolve(in: store))
        if output.json { return try JSONOutput.print(attachments.map(AttachmentJSON.init)) }
        if attachments.isEmpty, Terminal.isInteractive { print(Words.text("noAttachments")) }
        for attachment in attachments {
            let kind = attachment.kind.rawValue.padding(toLength: 5, withPad: " ", startingAt: 0)
            let size = TextOutput.byteCount(attachment.fileSize)
            print("\(TextOutput.shortId(attachment.id))  \(kind)  \(size.padding(toLength: 9, withPad: " ", startingAt: 0))  \(attachment.fileName)")
        }
    }
}

struct DetachCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "detach", abstract: "Remove an attachment from a note.")

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var note: NoteArgument
    @Argument(help: "The attachment's id or a unique prefix.") var attachment: String

    func run() throws {
        let store = try storeOptions.open()
        let noteId = try note.resolve(in: store)
        let found = try store.attachment(matching: attachment)
        guard found.noteId == noteId else { throw NoteTakerError.attachmentNotFound(attachment) }
        try store.detach(attachmentId: found.id)
    }
}

struct ExtractCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract", abstract: "Copy an attachment's file out of the store.")

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The attachment's id or a unique prefix.") var attachment: String
    @Option(help: "Where to write: a new file, or a folder to write into under the attachment's name.") var out: String

    func run() throws {
        let store = try storeOptions.openForReading()
        let written = try store.extractAttachment(try store.attachment(matching: attachment), to: URL(fileURLWithPath: out))
        print(written.path)
    }
}
