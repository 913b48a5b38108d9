public import Foundation

/// The package's executables of the same build as the running tests, so a test runs the
/// `homefeedd`, helper or probe its own code was built with.
public enum BuiltProducts {
    /// The directory SwiftPM built into: on Linux the test bundle is the file
    /// `<products>/homefeedPackageTests.xctest`, so it is the bundle's directory.
    public static let directory: URL = {
        let test =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: test).deletingLastPathComponent()
    }()

    /// The path of the executable product `name`.
    public static func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }
}
