public import Foundation

/// The directory this build put the package's executables in, found from the running test
/// bundle (on Linux `<products>/homefeedPackageTests.xctest`), so a test runs the `homefeedd`,
/// helper or probe of the same build as itself.
public enum BuiltProducts {
    public static let directory: URL = {
        let test =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let directory = URL(fileURLWithPath: test).deletingLastPathComponent()
        return directory.pathExtension == "xctest" ? directory.deletingLastPathComponent() : directory
    }()

    /// The path of the executable product `name`.
    public static func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }
}
