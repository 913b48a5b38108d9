public import FoundationEssentials
import Glibc
import HomeFetch
import HomeStore
import ThumbnailProtocol

/// The image files under the cache directory (`docs/images.md`, `docs/manifest.md`):
///
/// ```
/// images/                         0750, group = client group
///   incoming/                     0700: fetches and renditions being written
///   originals/ab/<sha256>         0600: fetched bytes, by content
///   renditions/ab/<sha256>-<w>x<h>-<mode>.<png|webp>   0640 in 0750 directories
/// ```
///
/// Renditions are what clients read (the manifest's `file://` URLs): readable by the owner and
/// the client group (`client-group`), never by others. Originals stay private. Modes are set
/// explicitly, whatever the umask (the unit's is 0077).
///
/// Sendable: immutable but for the group (``RenditionGroup``); the file system is the state.
public struct ImageCache: Sendable {
    public let root: URL
    /// The client group shared files are given to; a reload changes it.
    let group: RenditionGroup

    init(cacheDirectory: URL, group: RenditionGroup) {
        root = cacheDirectory.appendingPathComponent("images", isDirectory: true)
        self.group = group
    }

    var incoming: String { root.appendingPathComponent("incoming").path }

    /// Creates the directories with their modes.
    public func prepare() throws {
        try makeDirectory(root.path, mode: 0o750)
        try makeDirectory(incoming, mode: 0o700)
        try makeDirectory(root.appendingPathComponent("originals").path, mode: 0o700)
        try makeDirectory(root.appendingPathComponent("renditions").path, mode: 0o750)
        // A crash may have left half-written files behind.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: incoming)) ?? [] {
            unlink(incoming + "/" + name)
        }
    }

    /// Moves a fetched file to `originals/` under its hash; a file of the same content already
    /// there stays, the new one is removed.
    ///
    /// - Returns: the path relative to the cache directory.
    func adoptOriginal(_ file: DownloadedFile) throws -> String {
        let relative = "images/originals/\(file.sha256.prefix(2))/\(file.sha256)"
        let target = path(relative)
        try makeDirectory(URL(fileURLWithPath: target).deletingLastPathComponent().path, mode: 0o700)
        if access(target, F_OK) == 0 {
            unlink(file.path)
        } else {
            try move(file.path, to: target)
        }
        return relative
    }

    /// Removes a fetched file that is not kept.
    func discard(_ file: DownloadedFile) { unlink(file.path) }

    /// A fresh path in `incoming/` for the helper to write a rendition to.
    func incomingPath() -> String {
        "\(incoming)/r-\(String(UInt64.random(in: 0...UInt64.max), radix: 16))"
    }

    /// Gives a written rendition its mode and group and moves it to `renditions/`.
    ///
    /// - Returns: the path relative to the cache directory.
    func adoptRendition(from temporary: String, hash: String, key: ImageIndex.RenditionKey, format: RenditionFormat)
        throws -> String
    {
        let relative =
            "images/renditions/\(hash.prefix(2))/\(hash)-\(key.width)x\(key.height)-\(key.mode.rawValue)."
            + format.fileExtension
        let target = path(relative)
        try makeDirectory(URL(fileURLWithPath: target).deletingLastPathComponent().path, mode: 0o750)
        try share(temporary, mode: 0o640)
        try move(temporary, to: target)
        return relative
    }

    /// The absolute path of a file recorded relative to the cache directory.
    func path(_ relative: String) -> String {
        root.deletingLastPathComponent().appendingPathComponent(relative).path
    }

    /// The `file://` URL clients get.
    func fileURL(_ relative: String) -> String {
        URL(fileURLWithPath: path(relative)).absoluteString
    }

    func exists(_ relative: String) -> Bool { access(path(relative), F_OK) == 0 }

    func remove(_ relative: String) { unlink(path(relative)) }

    // MARK: Files

    private func makeDirectory(_ path: String, mode: mode_t) throws {
        if mkdir(path, mode) != 0, errno != EEXIST {
            throw FileCallError(call: "mkdir", path: path, code: errno)
        }
        try share(path, mode: mode)
    }

    /// `chmod` to `mode` and, when the group may read it, gives it to the client group (a failure
    /// leaves the daemon's group and is logged once: ``RenditionGroup/share(_:)``).
    private func share(_ path: String, mode: mode_t) throws {
        guard chmod(path, mode) == 0 else { throw FileCallError(call: "chmod", path: path, code: errno) }
        if mode & 0o070 != 0 { group.share(path) }
    }

    private func move(_ source: String, to target: String) throws {
        guard rename(source, target) == 0 else {
            let code = errno
            unlink(source)
            throw FileCallError(call: "rename", path: target, code: code)
        }
    }
}
