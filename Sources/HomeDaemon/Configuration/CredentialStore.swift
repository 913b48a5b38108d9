public import FoundationEssentials

/// Where the secrets of authenticated sources come from: `$CREDENTIALS_DIRECTORY`, one file
/// per credential, filled by systemd from `LoadCredential=`/`SetCredential=` (readable by the
/// service alone, never on a command line, never in the configuration directory).
///
/// Sendable: an immutable value.
public struct CredentialStore: Sendable, Equatable {
    /// The directory; nil when the daemon was started without one.
    public var directory: URL?

    public init(directory: URL? = nil) {
        self.directory = directory
    }

    /// The text of credential `name`, or nil when there is no directory, the name is not a
    /// plain file name, or the file cannot be read.
    public func read(_ name: String) -> String? {
        guard let directory, !name.isEmpty, !name.contains("/"), name != ".", name != ".." else { return nil }
        guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) else {
            return nil
        }
        return String(decoding: data, as: UTF8.self)
    }
}
