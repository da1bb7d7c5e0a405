import Foundation

/// Makes the small JPEG pictures that stand for attached images in lists and the editor, so
/// that a page of notes with 10 MB photos does not download 10 MB photos.
///
/// It uses gdk-pixbuf, loaded when first needed (as the PDF export does): its JPEG loader
/// decodes a large photo directly at a fraction of its size, and a phone photo's EXIF
/// orientation is applied. Where the library is missing, no thumbnails are made and the
/// original is served instead.
struct Thumbnailer: Sendable {
    /// The longest side of a thumbnail, in pixels (sharp at twice the size it is shown).
    static let side: Int32 = 320

    /// The library's functions, or `nil` when gdk-pixbuf is not installed.
    static let shared: Thumbnailer? = load()

    private typealias NewAtScale = @convention(c) (
        UnsafePointer<CChar>, Int32, Int32, Int32, UnsafeMutablePointer<OpaquePointer?>?
    ) -> OpaquePointer?
    private typealias FileInfo = @convention(c) (
        UnsafePointer<CChar>, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>
    ) -> OpaquePointer?
    private typealias ApplyOrientation = @convention(c) (OpaquePointer) -> OpaquePointer?
    private typealias SaveToBuffer = @convention(c) (
        OpaquePointer, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, UnsafeMutablePointer<Int>,
        UnsafePointer<CChar>, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
        UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, UnsafeMutablePointer<OpaquePointer?>?
    ) -> Int32
    private typealias Release = @convention(c) (OpaquePointer) -> Void
    private typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Void

    private let fileInfo: FileInfo
    private let newAtScale: NewAtScale
    private let applyOrientation: ApplyOrientation
    private let saveToBuffer: SaveToBuffer
    private let unref: Release
    private let freeError: Release
    private let free: Free

    private static func load() -> Thumbnailer? {
        guard let pixbuf = dlopen("libgdk_pixbuf-2.0.so.0", RTLD_NOW),
              let gobject = dlopen("libgobject-2.0.so.0", RTLD_NOW),
              let glib = dlopen("libglib-2.0.so.0", RTLD_NOW),
              let fileInfo = dlsym(pixbuf, "gdk_pixbuf_get_file_info"),
              let newAtScale = dlsym(pixbuf, "gdk_pixbuf_new_from_file_at_scale"),
              let applyOrientation = dlsym(pixbuf, "gdk_pixbuf_apply_embedded_orientation"),
              let saveToBuffer = dlsym(pixbuf, "gdk_pixbuf_save_to_bufferv"),
              let unref = dlsym(gobject, "g_object_unref"),
              let freeError = dlsym(glib, "g_error_free"),
              let free = dlsym(glib, "g_free")
        else { return nil }
        return Thumbnailer(
            fileInfo: unsafeBitCast(fileInfo, to: FileInfo.self),
            newAtScale: unsafeBitCast(newAtScale, to: NewAtScale.self),
            applyOrientation: unsafeBitCast(applyOrientation, to: ApplyOrientation.self),
            saveToBuffer: unsafeBitCast(saveToBuffer, to: SaveToBuffer.self),
            unref: unsafeBitCast(unref, to: Release.self), freeError: unsafeBitCast(freeError, to: Release.self),
            free: unsafeBitCast(free, to: Free.self))
    }

    /// A JPEG of the picture in `file`, at most ``side`` pixels on its longest side; `nil`
    /// when the file is not a picture gdk-pixbuf can read, or is no larger than a thumbnail.
    func jpeg(of file: URL) -> Data? {
        var width: Int32 = 0
        var height: Int32 = 0
        guard fileInfo(file.path, &width, &height) != nil, max(width, height) > Self.side else { return nil }
        var error: OpaquePointer?
        guard let loaded = newAtScale(file.path, Self.side, Self.side, 1, &error) else {
            if let error { freeError(error) }
            return nil
        }
        defer { unref(loaded) }
        let upright = applyOrientation(loaded)
        defer { if let upright { unref(upright) } }
        var buffer: UnsafeMutablePointer<CChar>?
        var size = 0
        let saved = withOptions(["quality": "80"]) { keys, values in
            saveToBuffer(upright ?? loaded, &buffer, &size, "jpeg", keys, values, &error)
        }
        defer { free(buffer) }
        guard saved != 0, let buffer else {
            if let error { freeError(error) }
            return nil
        }
        return Data(bytes: buffer, count: size)
    }

    /// Calls `body` with gdk-pixbuf's option lists: NULL-terminated arrays of C strings.
    private func withOptions<T>(
        _ options: [String: String],
        _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> T
    ) -> T {
        var keys = options.keys.map { strdup($0) } + [nil]
        var values = options.values.map { strdup($0) } + [nil]
        defer { (keys + values).forEach { Foundation.free($0) } }
        return body(&keys, &values)
    }
}
