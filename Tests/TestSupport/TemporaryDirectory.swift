public import Foundation
import Glibc

/// A fresh directory directly under /tmp (`/tmp/<prefix>.XXXXXX`, from `mkdtemp`), removed
/// with everything in it when the value is released.
///
/// Short on purpose: socket paths inside it stay far below the 107-byte `sun_path` limit
/// (swift-on-linux.md §6). Tests run in parallel, so each one works in its own directory.
/// `@unchecked Sendable`: its stored properties never change.
public final class TemporaryDirectory: @unchecked Sendable {
    public let url: URL
    public var path: String { url.path }

    /// - Parameter prefix: a few letters saying which tests made it, for whoever lists /tmp.
    public init(prefix: String = "hf") throws {
        var template = Array("/tmp/\(prefix).XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw FixtureError("mkdtemp /tmp/\(prefix).XXXXXX: errno \(errno)")
        }
        url = URL(fileURLWithPath: String(cString: made), isDirectory: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The path of `name` inside the directory.
    public func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` to `name` inside the directory and returns the file's path.
    @discardableResult
    public func write(_ text: String, to name: String) throws -> String {
        let path = file(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A subdirectory, created.
    public func directory(_ name: String) throws -> URL {
        let directory = url.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }
}

/// A copy of the sample configuration (`feeds/`, which tests may then edit) with empty state
/// and cache directories, all in one `TemporaryDirectory`.
public final class SampleConfiguration: Sendable {
    public let root: TemporaryDirectory
    public let configDirectory: URL
    public let stateDirectory: URL
    public let cacheDirectory: URL

    public init(prefix: String = "hfc") throws {
        root = try TemporaryDirectory(prefix: prefix)
        configDirectory = root.url.appendingPathComponent("config", isDirectory: true)
        try FileManager.default.copyItem(at: PackageRoot.url.appendingPathComponent("feeds"), to: configDirectory)
        stateDirectory = try root.directory("state")
        cacheDirectory = try root.directory("cache")
    }
}

/// The package's root directory, from this file's path (Tests/TestSupport/…).
public enum PackageRoot {
    public static let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}
