import Foundation

/// Reads a file line by line through a buffer, so a file of any size is read in flat memory.
/// A line longer than `maximumLineLength` is reported as too long and passed over.
struct LineReader {
    /// One line, or the news that a line was too long to read.
    enum Line {
        case text(Data, number: Int)
        case tooLong(number: Int)
    }

    private let handle: FileHandle
    private let maximumLineLength: Int
    private let path: String
    private var buffer = Data()
    private var start = 0
    private var atEnd = false
    private var lineNumber = 0
    private(set) var bytesRead: Int64 = 0

    init(url: URL, maximumLineLength: Int) throws(InterchangeError) {
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw .unreadable(path: url.path, reason: .verbatim(error.localizedDescription))
        }
        self.maximumLineLength = maximumLineLength
        path = url.path
    }

    /// The next line without its newline, or `nil` at the end of the file.
    mutating func next() throws(InterchangeError) -> Line? {
        var discarding = false
        while true {
            if let newline = newlineIndex() {
                let line = buffer[start..<newline]
                start = newline + 1
                return finish(line, discarding: discarding)
            }
            if atEnd {
                guard start < buffer.endIndex || discarding else { return nil }
                let line = buffer[start...]
                start = buffer.endIndex
                return finish(line, discarding: discarding)
            }
            buffer.removeSubrange(buffer.startIndex..<start)
            if buffer.count > maximumLineLength {
                discarding = true
                buffer.removeAll(keepingCapacity: true)
            }
            let chunk: Data
            do {
                chunk = try handle.read(upToCount: 1 << 20) ?? Data()
            } catch {
                throw .unreadable(path: path, reason: .verbatim(error.localizedDescription))
            }
            bytesRead += Int64(chunk.count)
            if chunk.isEmpty { atEnd = true } else { buffer.append(chunk) }
            start = buffer.startIndex
        }
    }

    /// The index of the next newline from `start`, found by `memchr` (a byte-by-byte search
    /// through `Data` costs more than the rest of an import).
    private func newlineIndex() -> Int? {
        let count = buffer.count - start
        guard count > 0 else { return nil }
        return buffer.withUnsafeBytes { bytes -> Int? in
            guard let base = bytes.baseAddress, let found = memchr(base + start, Int32(UInt8(ascii: "\n")), count) else { return nil }
            return base.distance(to: UnsafeRawPointer(found))
        }
    }

    private mutating func finish(_ line: Data, discarding: Bool) -> Line {
        lineNumber += 1
        if discarding || line.count > maximumLineLength { return .tooLong(number: lineNumber) }
        return .text(Data(line), number: lineNumber)
    }

    func close() {
        try? handle.close()
    }
}
