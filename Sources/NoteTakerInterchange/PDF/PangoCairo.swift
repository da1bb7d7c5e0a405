import Foundation
import NoteTakerKit
#if canImport(Glibc)
import Glibc
#endif

/// The cairo, pango and gdk-pixbuf functions PDF export uses. They are loaded from the
/// system's shared libraries when first needed (no headers at build time), so NoteTaker
/// builds and runs everywhere, and only PDF export asks for the libraries.
struct PangoCairo: @unchecked Sendable {
    typealias Pointer = OpaquePointer
    typealias Text = UnsafePointer<CChar>

    let pdfSurfaceCreate: @convention(c) (Text, Double, Double) -> Pointer?
    let pdfSetMetadata: @convention(c) (Pointer, Int32, Text) -> Void
    let surfaceStatus: @convention(c) (Pointer) -> Int32
    let surfaceFinish: @convention(c) (Pointer) -> Void
    let surfaceDestroy: @convention(c) (Pointer) -> Void
    let surfaceFlush: @convention(c) (Pointer) -> Void
    let surfaceMarkDirty: @convention(c) (Pointer) -> Void
    let create: @convention(c) (Pointer) -> Pointer?
    let destroy: @convention(c) (Pointer) -> Void
    let showPage: @convention(c) (Pointer) -> Void
    let moveTo: @convention(c) (Pointer, Double, Double) -> Void
    let setSourceRGB: @convention(c) (Pointer, Double, Double, Double) -> Void
    let rectangle: @convention(c) (Pointer, Double, Double, Double, Double) -> Void
    let fill: @convention(c) (Pointer) -> Void
    let save: @convention(c) (Pointer) -> Void
    let restore: @convention(c) (Pointer) -> Void
    let translate: @convention(c) (Pointer, Double, Double) -> Void
    let scale: @convention(c) (Pointer, Double, Double) -> Void
    let setSourceSurface: @convention(c) (Pointer, Pointer, Double, Double) -> Void
    let paint: @convention(c) (Pointer) -> Void
    let imageSurfaceCreate: @convention(c) (Int32, Int32, Int32) -> Pointer?
    let imageSurfaceData: @convention(c) (Pointer) -> UnsafeMutablePointer<UInt8>?
    let imageSurfaceStride: @convention(c) (Pointer) -> Int32
    let tagBegin: @convention(c) (Pointer, Text, Text) -> Void
    let tagEnd: @convention(c) (Pointer, Text) -> Void

    let createLayout: @convention(c) (Pointer) -> Pointer?
    let layoutSetWidth: @convention(c) (Pointer, Int32) -> Void
    let layoutSetWrap: @convention(c) (Pointer, Int32) -> Void
    let layoutSetMarkup: @convention(c) (Pointer, Text, Int32) -> Void
    let layoutSetText: @convention(c) (Pointer, Text, Int32) -> Void
    let layoutSetFont: @convention(c) (Pointer, Pointer) -> Void
    let layoutUnknownGlyphs: @convention(c) (Pointer) -> Int32
    let layoutIter: @convention(c) (Pointer) -> Pointer?
    let iterFree: @convention(c) (Pointer) -> Void
    let iterNextLine: @convention(c) (Pointer) -> Int32
    let iterLine: @convention(c) (Pointer) -> Pointer?
    let iterBaseline: @convention(c) (Pointer) -> Int32
    let iterLineYRange: @convention(c) (Pointer, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>) -> Void
    let showLayoutLine: @convention(c) (Pointer, Pointer) -> Void
    let fontFromString: @convention(c) (Text) -> Pointer?
    let fontFree: @convention(c) (Pointer) -> Void
    let parseMarkup: @convention(c) (Text, Int32, UInt32, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32
    let objectUnref: @convention(c) (Pointer) -> Void

    /// gdk-pixbuf, for pictures; `nil` when it is missing (pictures are then named, not drawn).
    let pixbuf: Pixbuf?

    /// The picture-loading functions of gdk-pixbuf.
    struct Pixbuf {
        let newFromFile: @convention(c) (Text, UnsafeMutableRawPointer?) -> Pointer?
        let width: @convention(c) (Pointer) -> Int32
        let height: @convention(c) (Pointer) -> Int32
        let rowstride: @convention(c) (Pointer) -> Int32
        let channels: @convention(c) (Pointer) -> Int32
        let hasAlpha: @convention(c) (Pointer) -> Int32
        let pixels: @convention(c) (Pointer) -> UnsafeMutablePointer<UInt8>?
    }

    /// Loads the libraries, or says which one is missing and how to install it.
    static func load() throws(InterchangeError) -> PangoCairo {
        let cairo = try open("libcairo.so.2", package: "libcairo2")
        let pango = try open("libpango-1.0.so.0", package: "libpango-1.0-0")
        let pangoCairo = try open("libpangocairo-1.0.so.0", package: "libpangocairo-1.0-0")
        let gobject = try open("libgobject-2.0.so.0", package: "libglib2.0-0")
        let pixbufLibrary = dlopen("libgdk_pixbuf-2.0.so.0", RTLD_NOW)
        func symbol<T>(_ library: UnsafeMutableRawPointer, _ name: String) throws(InterchangeError) -> T {
            guard let address = dlsym(library, name) else {
                throw .pdfUnavailable(Wording("reasonCairoTooOld", ["name": name]))
            }
            return unsafeBitCast(address, to: T.self)
        }
        var pixbuf: Pixbuf?
        if let library = pixbufLibrary {
            pixbuf = try Pixbuf(
                newFromFile: symbol(library, "gdk_pixbuf_new_from_file"), width: symbol(library, "gdk_pixbuf_get_width"),
                height: symbol(library, "gdk_pixbuf_get_height"), rowstride: symbol(library, "gdk_pixbuf_get_rowstride"),
                channels: symbol(library, "gdk_pixbuf_get_n_channels"), hasAlpha: symbol(library, "gdk_pixbuf_get_has_alpha"),
                pixels: symbol(library, "gdk_pixbuf_get_pixels"))
        }
        return try PangoCairo(
            pdfSurfaceCreate: symbol(cairo, "cairo_pdf_surface_create"), pdfSetMetadata: symbol(cairo, "cairo_pdf_surface_set_metadata"),
            surfaceStatus: symbol(cairo, "cairo_surface_status"), surfaceFinish: symbol(cairo, "cairo_surface_finish"),
            surfaceDestroy: symbol(cairo, "cairo_surface_destroy"), surfaceFlush: symbol(cairo, "cairo_surface_flush"),
            surfaceMarkDirty: symbol(cairo, "cairo_surface_mark_dirty"), create: symbol(cairo, "cairo_create"),
            destroy: symbol(cairo, "cairo_destroy"), showPage: symbol(cairo, "cairo_show_page"),
            moveTo: symbol(cairo, "cairo_move_to"), setSourceRGB: symbol(cairo, "cairo_set_source_rgb"),
            rectangle: symbol(cairo, "cairo_rectangle"), fill: symbol(cairo, "cairo_fill"), save: symbol(cairo, "cairo_save"),
            restore: symbol(cairo, "cairo_restore"), translate: symbol(cairo, "cairo_translate"), scale: symbol(cairo, "cairo_scale"),
            setSourceSurface: symbol(cairo, "cairo_set_source_surface"), paint: symbol(cairo, "cairo_paint"),
            imageSurfaceCreate: symbol(cairo, "cairo_image_surface_create"),
            imageSurfaceData: symbol(cairo, "cairo_image_surface_get_data"),
            imageSurfaceStride: symbol(cairo, "cairo_image_surface_get_stride"),
            tagBegin: symbol(cairo, "cairo_tag_begin"), tagEnd: symbol(cairo, "cairo_tag_end"),
            createLayout: symbol(pangoCairo, "pango_cairo_create_layout"), layoutSetWidth: symbol(pango, "pango_layout_set_width"),
            layoutSetWrap: symbol(pango, "pango_layout_set_wrap"), layoutSetMarkup: symbol(pango, "pango_layout_set_markup"),
            layoutSetText: symbol(pango, "pango_layout_set_text"),
            layoutSetFont: symbol(pango, "pango_layout_set_font_description"),
            layoutUnknownGlyphs: symbol(pango, "pango_layout_get_unknown_glyphs_count"),
            layoutIter: symbol(pango, "pango_layout_get_iter"), iterFree: symbol(pango, "pango_layout_iter_free"),
            iterNextLine: symbol(pango, "pango_layout_iter_next_line"),
            iterLine: symbol(pango, "pango_layout_iter_get_line_readonly"),
            iterBaseline: symbol(pango, "pango_layout_iter_get_baseline"),
            iterLineYRange: symbol(pango, "pango_layout_iter_get_line_yrange"),
            showLayoutLine: symbol(pangoCairo, "pango_cairo_show_layout_line"),
            fontFromString: symbol(pango, "pango_font_description_from_string"),
            fontFree: symbol(pango, "pango_font_description_free"), parseMarkup: symbol(pango, "pango_parse_markup"),
            objectUnref: symbol(gobject, "g_object_unref"), pixbuf: pixbuf)
    }

    private static func open(_ name: String, package: String) throws(InterchangeError) -> UnsafeMutableRawPointer {
        guard let handle = dlopen(name, RTLD_NOW | RTLD_GLOBAL) else {
            throw .pdfUnavailable(Wording("reasonLibraryMissing", ["name": name, "package": package]))
        }
        return handle
    }
}
