import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol

/// Lays out notes on A4 pages with Pango and draws them into a PDF with cairo: a page
/// break before each note, lines never split across pages, pictures scaled to fit.
final class PDFWriter {
    private static let pageWidth = 595.28
    private static let pageHeight = 841.89
    private static let margin = 56.0
    private static let pangoScale = 1024.0
    private static let contentWidth = pageWidth - 2 * margin

    private let library: PangoCairo
    private let surface: PangoCairo.Pointer
    private let context: PangoCairo.Pointer
    private var y = margin
    private var pageIsEmpty = true
    /// Characters no installed font could draw (they show as boxes).
    private(set) var missingGlyphs = 0

    init(library: PangoCairo, file: URL, title: String) throws(InterchangeError) {
        self.library = library
        // Made 0600 first: cairo truncates the file and keeps its mode.
        guard OwnerOnly.createFile(at: file) else { throw .writeFailed(path: file.path, reason: Wording("reasonFileNotCreated")) }
        guard let surface = library.pdfSurfaceCreate(file.path, Self.pageWidth, Self.pageHeight),
              library.surfaceStatus(surface) == 0, let context = library.create(surface)
        else { throw .writeFailed(path: file.path, reason: Wording("reasonCairoNoPDF")) }
        self.surface = surface
        self.context = context
        library.pdfSetMetadata(surface, 0, title)
        library.pdfSetMetadata(surface, 4, "NoteTaker")
    }

    /// Starts a new page unless the current one is still empty.
    func newPage() {
        guard !pageIsEmpty else { return }
        library.showPage(context)
        y = Self.margin
        pageIsEmpty = true
    }

    /// Draws text (Pango markup) in `font`, indented by `indent`, wrapping at the margin.
    /// With `background`, each line sits on a grey band (code); with `bar`, a bar on its left (quotes).
    func text(_ markup: String, font: String, indent: Double = 0, grey: Double = 0, background: Bool = false, bar: Bool = false) {
        guard let layout = library.createLayout(context), let description = library.fontFromString(font) else { return }
        defer {
            library.fontFree(description)
            library.objectUnref(layout)
        }
        library.layoutSetFont(layout, description)
        library.layoutSetWidth(layout, Int32((Self.contentWidth - indent) * Self.pangoScale))
        library.layoutSetWrap(layout, 2)
        if library.parseMarkup(markup, -1, 0, nil, nil, nil, nil) != 0 {
            library.layoutSetMarkup(layout, markup, -1)
        } else {
            library.layoutSetText(layout, markup, -1)
        }
        missingGlyphs += Int(library.layoutUnknownGlyphs(layout))
        guard let iterator = library.layoutIter(layout) else { return }
        defer { library.iterFree(iterator) }
        repeat {
            var top: Int32 = 0
            var bottom: Int32 = 0
            library.iterLineYRange(iterator, &top, &bottom)
            let height = Double(bottom - top) / Self.pangoScale
            if y + height > Self.pageHeight - Self.margin { forceNewPage() }
            let baseline = Double(library.iterBaseline(iterator) - top) / Self.pangoScale
            if background {
                library.setSourceRGB(context, 0.94, 0.94, 0.94)
                library.rectangle(context, Self.margin + indent - 4, y, Self.contentWidth - indent + 8, height)
                library.fill(context)
            }
            if bar {
                library.setSourceRGB(context, 0.75, 0.75, 0.75)
                library.rectangle(context, Self.margin + indent - 10, y, 2.5, height)
                library.fill(context)
            }
            library.setSourceRGB(context, grey, grey, grey)
            if let line = library.iterLine(iterator) {
                library.moveTo(context, Self.margin + indent, y + baseline)
                library.showLayoutLine(context, line)
            }
            y += height
            pageIsEmpty = false
        } while library.iterNextLine(iterator) != 0
    }

    /// Leaves vertical space (none at the top of a page).
    func space(_ points: Double) {
        guard !pageIsEmpty else { return }
        y = min(y + points, Self.pageHeight - Self.margin)
    }

    /// A thin horizontal rule.
    func rule() {
        space(6)
        library.setSourceRGB(context, 0.7, 0.7, 0.7)
        library.rectangle(context, Self.margin, y, Self.contentWidth, 0.75)
        library.fill(context)
        y += 0.75
        pageIsEmpty = false
        space(6)
    }

    /// Draws a picture scaled to the text width (and at most half a page high); `false` when
    /// it cannot be read as a picture.
    func picture(at file: URL) -> Bool {
        guard let pixbuf = library.pixbuf, let image = pixbuf.newFromFile(file.path, nil) else { return false }
        defer { library.objectUnref(image) }
        let width = Int(pixbuf.width(image))
        let height = Int(pixbuf.height(image))
        guard width > 0, height > 0, let surface = library.imageSurfaceCreate(0, Int32(width), Int32(height)),
              let target = library.imageSurfaceData(surface), let source = pixbuf.pixels(image)
        else { return false }
        defer { library.surfaceDestroy(surface) }
        library.surfaceFlush(surface)
        let stride = Int(library.imageSurfaceStride(surface))
        let rowstride = Int(pixbuf.rowstride(image))
        let channels = Int(pixbuf.channels(image))
        let alpha = pixbuf.hasAlpha(image) != 0
        for row in 0..<height {
            for column in 0..<width {
                let pixel = source + row * rowstride + column * channels
                let a = alpha ? UInt32(pixel[3]) : 255
                let premultiplied = { (value: UInt8) in UInt32(value) * a / 255 }
                let argb = (a << 24) | (premultiplied(pixel[0]) << 16) | (premultiplied(pixel[1]) << 8) | premultiplied(pixel[2])
                (target + row * stride + column * 4).withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee = argb }
            }
        }
        library.surfaceMarkDirty(surface)
        let scale = min(1, Self.contentWidth / Double(width), (Self.pageHeight - 2 * Self.margin) / 2 / Double(height))
        let drawnHeight = Double(height) * scale
        if y + drawnHeight > Self.pageHeight - Self.margin { forceNewPage() }
        library.save(context)
        library.translate(context, Self.margin, y)
        library.scale(context, scale, scale)
        library.setSourceSurface(context, surface, 0, 0)
        library.paint(context)
        library.restore(context)
        y += drawnHeight
        pageIsEmpty = false
        return true
    }

    /// Ends the document and writes the file.
    func finish() throws(InterchangeError) {
        library.destroy(context)
        library.surfaceFinish(surface)
        let status = library.surfaceStatus(surface)
        library.surfaceDestroy(surface)
        if status != 0 { throw .writeFailed(path: "PDF", reason: Wording("reasonCairoError", ["status": String(status)])) }
    }

    private func forceNewPage() {
        library.showPage(context)
        y = Self.margin
        pageIsEmpty = true
    }
}
