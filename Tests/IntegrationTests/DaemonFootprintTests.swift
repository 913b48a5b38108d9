import Foundation
import Testing

/// What the idle daemon keeps resident (issue 17): libraries it does not load and a thread it
/// does not start. The test build links the Swift libraries dynamically, so an `import
/// Foundation` in any of the daemon's targets would map these files.
@Suite(.timeLimit(.minutes(1)))
struct DaemonFootprintTests {
    @Test("homefeedd maps no full Foundation, and starts libcurl's thread only to fetch over HTTP")
    func footprint() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        defer { daemon.stop() }
        let pid = try #require(daemon.pid)

        // Read to the end: a /proc file has no size to read up to.
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/\(pid)/maps"))
        defer { try? handle.close() }
        let maps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        // The whole file was read: the daemon's own mappings and a library's.
        #expect(maps.contains("homefeedd") && maps.contains("libc.so"))
        for library in ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so"] {
            let mapped = maps.contains(library)
            #expect(!mapped, "\(library) is mapped")
        }

        // Started with --no-fetch, on the sample configuration (file: sources): no HTTP yet.
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
        let names = tasks.compactMap { task in
            try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(names.contains("homefeedd"))
        #expect(!names.contains("homefeed-fetch"))
    }
}
