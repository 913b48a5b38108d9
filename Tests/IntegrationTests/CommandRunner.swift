import Foundation
import TestSupport

/// Runs a built executable of this package (found next to the test bundle) with output captured
/// in temporary files, so no pipe can fill up and block.
struct CommandRunner {
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The package root, from this file's path (Tests/IntegrationTests/…).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The directory SwiftPM put the test bundle and the executables in.
    static let productsDirectory: URL = {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var url = URL(fileURLWithPath: executable).deletingLastPathComponent()
        // On Linux the tests run from `<products>/homefeedPackageTests.xctest`.
        if url.pathExtension == "xctest" { url = url.deletingLastPathComponent() }
        return url
    }()

    /// A product of this package, or an absolute path.
    let executable: String

    /// Runs the executable with `environment` added to the test's own.
    func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:]) throws -> Outcome {
        let scratch = try TemporaryDirectory(prefix: "hf-run")
        defer { withExtendedLifetime(scratch) {} }  // removed on release
        let out = scratch.url.appendingPathComponent("stdout")
        let err = scratch.url.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)

        let process = Process()
        process.executableURL =
            executable.hasPrefix("/")
            ? URL(fileURLWithPath: executable) : Self.productsDirectory.appendingPathComponent(executable)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.currentDirectoryURL = Self.packageRoot
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        if let stdin {
            let input = scratch.url.appendingPathComponent("stdin")
            try stdin.write(to: input)
            process.standardInput = try FileHandle(forReadingFrom: input)
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        try process.run()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self)
        )
    }
}
