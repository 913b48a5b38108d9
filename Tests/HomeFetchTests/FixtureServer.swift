import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The loopback HTTP server of `Fixtures/http_fixture_server.py`, one Python process bound to
/// 127.0.0.1 on a port the kernel picks.
///
/// The script exits when its stdin closes, so the server ends with the test process even when
/// that process crashes. `@unchecked Sendable`: `Process` and `Pipe` are only touched in
/// `start()`; afterwards the value is read-only.
final class FixtureServer: @unchecked Sendable {
    let port: Int
    private let process: Process
    private let stdin: Pipe

    private init(port: Int, process: Process, stdin: Pipe) {
        self.port = port
        self.process = process
        self.stdin = stdin
    }

    /// One server shared by the tests that need no server-wide counters.
    static let shared = Task { try await FixtureServer.start() }

    /// Starts a new server process and waits for its port.
    static func start() async throws -> FixtureServer {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/http_fixture_server.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path]
        let stdout = Pipe()
        let stdin = Pipe()
        process.standardOutput = stdout
        process.standardInput = stdin
        try process.run()
        let reader = stdout.fileHandleForReading
        // Reading a pipe blocks: do it on a dispatch queue, never on the cooperative pool.
        let line = await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            DispatchQueue.global().async {
                var bytes: [UInt8] = []
                while !bytes.contains(UInt8(ascii: "\n")) {
                    let data = reader.availableData
                    if data.isEmpty { break }
                    bytes.append(contentsOf: data)
                }
                continuation.resume(returning: String(decoding: bytes, as: UTF8.self))
            }
        }
        guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw FixtureError("fixture server did not print a port: \(line)")
        }
        return FixtureServer(port: port, process: process, stdin: stdin)
    }

    /// `http://127.0.0.1:<port><path>`.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// The requests the server saw for `key`.
    func requests(_ key: String) async throws -> [SeenRequest] {
        let data = try await plainGET("/_requests/\(key)")
        return try JSONDecoder().decode([SeenRequest].self, from: data)
    }

    /// The most `slow` requests that were in flight at once since the last reset.
    func maxActive(reset: Bool = false) async throws -> Int {
        let data = try await plainGET("/_stats/x" + (reset ? "?reset=1" : ""))
        return try JSONDecoder().decode(Stats.self, from: data).maxActive
    }

    private func plainGET(_ path: String) async throws -> Data {
        guard let target = URL(string: url(path)) else { throw FixtureError("bad path \(path)") }
        let (data, _) = try await TestSupport.rawSession.data(from: target)
        return data
    }

    struct SeenRequest: Decodable, Sendable {
        var path: String
        var ifNoneMatch: String?
        var ifModifiedSince: String?
        var userAgent: String?
        var acceptEncoding: String?
    }

    private struct Stats: Decodable {
        var maxActive: Int
    }
}

struct FixtureError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
