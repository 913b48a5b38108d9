import HomeDaemon
import Testing

/// A `homefeedd.conf` text (read as `c.conf`) that must be refused, and how its error starts.
struct BadConfig: Sendable, CustomTestStringConvertible {
    var text: String
    var message: String
    var testDescription: String { message }

    /// Records an issue unless reading the text fails with an error that starts with `message`.
    func expectRefused(sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            _ = try DaemonSettings(ConfigFile(path: "c.conf", text: text))
            Issue.record("accepted: \(text)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.description.hasPrefix(message), "\(error.description)", sourceLocation: sourceLocation)
        }
    }
}
