public import FoundationEssentials
import Glibc
public import HomeFetch
public import HomeLayout
import SystemCalls

/// Everything the configuration directory holds, read and validated together: settings
/// (`homefeedd.conf`, optional), the layout spec and the sources list.
///
/// A reload builds a new value and swaps it in only when it validates, so a broken edit never
/// replaces a working configuration.
public struct LoadedConfiguration: Sendable {
    public var directory: URL
    public var settings: DaemonSettings
    public var spec: LayoutSpec
    public var sources: SourceList
    /// Where the sources' credentials were read from; a reload reads them again.
    public var credentials: CredentialStore
    /// The daemon's scope; a reload keeps it. A per-user daemon has no client group: its socket
    /// is 0600, so no other user reaches it, and renditions keep the user's own group.
    public var scope: DaemonScope = .system

    public static let settingsFile = "homefeedd.conf"

    /// The layout file `settings` names, in `directory`.
    var layoutURL: URL { directory.appendingPathComponent(settings.layoutFile) }

    /// Reads and validates the configuration in `directory`.
    ///
    /// - Throws: ``ConfigError`` naming the file and what is wrong: a settings key, a layout
    ///   JSON path, a layout UIKit would refuse at one of the profiles (or would once enough
    ///   content fills a section whose groups repeat at a negative stride), an unreadable source list,
    ///   a source whose URL scheme cannot be fetched, whose URL holds a user name or password, or
    ///   whose credential cannot be read (with the outline's line).
    public static func load(
        directory: URL,
        credentials: CredentialStore = CredentialStore(),
        scope: DaemonScope = .system
    ) async throws(ConfigError) -> LoadedConfiguration {
        let settingsURL = directory.appendingPathComponent(settingsFile)
        var settings = DaemonSettings()
        if FileManager.default.fileExists(atPath: settingsURL.path) {
            let text = try read(settingsURL, limit: ConfigFile.maxBytes)
            settings = try DaemonSettings(
                ConfigFile(path: settingsURL.path, bytes: text)
            )
        }
        if scope == .user { settings.clientGroup = nil }

        let layoutURL = directory.appendingPathComponent(settings.layoutFile)
        let layoutBytes: [UInt8]
        do throws(ConfigError) {
            layoutBytes = try read(layoutURL, limit: LayoutLimits.maxSpecBytes)
        } catch {
            var error = error
            error.isLayout = true
            throw error
        }
        let spec: LayoutSpec
        do throws(LayoutSpecError) {
            spec = try LayoutSpec(json: layoutBytes)
        } catch {
            throw ConfigError(
                file: layoutURL.path,
                key: error.path.isEmpty ? nil : error.path,
                reason: error.reason,
                isLayout: true
            )
        }
        // The layout must solve at every profile with the spec's own item counts, and no section
        // may shrink as content adds groups to it: the content decides how many it holds.
        for profile in settings.profiles {
            do throws(LayoutSolveError) {
                _ = try LayoutSolver.solve(spec, in: profile.environment, refusingNegativeStrides: true)
            } catch {
                throw ConfigError(file: layoutURL.path, unsolvable: error, context: "at profile \(profile.name)")
            }
        }

        let sourcesURL = directory.appendingPathComponent(settings.sourcesFile)
        var sources: SourceList
        do throws(FetchError) {
            sources = try await SourceList.load(path: sourcesURL.path)
        } catch {
            throw ConfigError(file: sourcesURL.path, reason: error.description)
        }
        // A source nothing can fetch would never be polled: refuse it rather than drop it. First,
        // so a notices@URL naming it is not reported as naming no source (with its password).
        if let unsupported = sources.unsupported.first {
            throw ConfigError(file: sourcesURL.path, line: unsupported.line, reason: unsupported.description)
        }
        try settings.resolveNoticeRuns(
            feeds: sources.urls(of: .notices),
            list: sources.documentURL,
            file: settingsURL.path
        )
        for index in sources.sources.indices {
            guard let name = sources.sources[index].credentialName else { continue }
            let source = sources.sources[index]
            func refuse(_ reason: String) -> ConfigError {
                ConfigError(
                    file: sourcesURL.path,
                    line: source.line,
                    reason: "outline \(source.url): credential \"\(name)\" \(reason)"
                )
            }
            guard !source.url.lowercased().hasPrefix("file:") else { throw refuse("cannot be sent to a file: source") }
            guard let text = credentials.read(name) else {
                throw refuse(
                    credentials.directory == nil
                        ? "needs $CREDENTIALS_DIRECTORY (LoadCredential= in the unit)"
                        : "is not a readable file in $CREDENTIALS_DIRECTORY"
                )
            }
            guard let credential = FetchCredential(name: name, text: text) else {
                throw refuse("is not \"bearer TOKEN\", \"basic USER:PASSWORD\" or a bare token on one line")
            }
            sources.sources[index].credential = credential
        }
        return LoadedConfiguration(
            directory: directory,
            settings: settings,
            spec: spec,
            sources: sources,
            credentials: credentials,
            scope: scope
        )
    }

    /// At most `limit` bytes of a file, with read(2) (no Foundation in the daemon, issue 17).
    private static func read(_ url: URL, limit: Int) throws(ConfigError) -> [UInt8] {
        func failure() -> ConfigError {
            ConfigError(file: url.path, reason: "cannot read: \(String(cString: strerror(errno)))")
        }
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure() }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while bytes.count <= limit {
            let count = retryingEINTR { chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) } }
            guard count >= 0 else { throw failure() }
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        guard bytes.count <= limit else { throw ConfigError(file: url.path, reason: "larger than \(limit) bytes") }
        return bytes
    }
}
