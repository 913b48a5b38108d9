import Foundation

/// What the offline tools read: a file named on the command line, or standard input for `-`
/// (`layout … SPEC`, `feed parse FILE`, `text measure TEXT`).
enum InputFile {
    /// How messages name `path`: "standard input" for `-`.
    static func name(_ path: String) -> String {
        path == "-" ? "standard input" : path
    }

    /// At most `limit` bytes of `path` (standard input for `-`); a caller that asks for one
    /// byte past its own limit tells a larger input apart. When it cannot be read (missing,
    /// unreadable, a directory, a closed standard input), prints `homefeedctl: PATH: cannot
    /// read: REASON` and returns nil.
    static func read(_ path: String, upTo limit: Int) -> Data? {
        do {
            let handle =
                path == "-" ? FileHandle.standardInput : try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            return try handle.read(upToCount: limit) ?? Data()
        } catch {
            Console.error("homefeedctl: \(name(path)): cannot read: \(error.fileReason)")
            return nil
        }
    }
}
