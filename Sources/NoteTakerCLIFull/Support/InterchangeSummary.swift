import NoteTakerCLI
import NoteTakerInterchange

/// What an import or export did, in lines for the reader, in their language.
///
enum InterchangeSummary {
    /// The counts, then each note skipped, each warning and each file attached.
    static func text(of report: ImportReport) -> String {
        var lines = [Words.text("importCounts", [
            "count": report.found, "imported": report.imported, "present": report.alreadyPresent, "skipped": report.skipped.count,
        ])]
        if !report.updated.isEmpty { lines.append(Words.text("importUpdatedCount", ["count": report.updated.count])) }
        if report.linksKept + report.linksUnresolved > 0 {
            lines.append(Words.text("importLinks", ["count": report.linksKept, "unresolved": report.linksUnresolved]))
        }
        if let stop = report.stop { lines.append(Words.text("importStoppedEarly", ["reason": Words.text(of: stop)])) }
        lines += report.updated.map { Words.text("importUpdated", ["item": $0]) }
        lines += report.skipped.map { Words.text("importSkipped", ["item": $0.item, "reason": Words.text(of: $0.wording)]) }
        lines += report.warnings.map { Words.text("importWarning", ["item": $0.item, "reason": Words.text(of: $0.wording)]) }
        lines += report.attachedFiles.map { Words.text("importAttached", ["file": $0.file, "note": $0.note]) }
        return lines.joined(separator: "\n")
    }

    /// One line of counts, then a line for each warning.
    static func text(of report: ExportReport) -> String {
        let counts = Words.text("exportCounts", [
            "count": report.notes, "attachments": report.attachments, "folders": report.folders, "format": report.format.rawValue,
        ])
        return ([counts] + report.warnings.map { Words.text("exportWarning", ["reason": Words.text(of: $0)]) }).joined(separator: "\n")
    }
}
