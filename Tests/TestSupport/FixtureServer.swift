import Foundation
import Glibc
import SystemCalls

/// The loopback HTTP server of `Fixtures/http_fixture_server.py`, one Python process bound to
/// 127.0.0.1 on ports the kernel picks (one, or `ports` of them serving the same cases).
///
/// The script exits when its stdin closes, so the server ends with the test process even when
/// that process crashes; started as a ``ChildProcess``, it holds nothing of the test's, so no
/// other child keeps it (or a child's exit) alive. `@unchecked Sendable`: read-only after
/// `start()`.
public final class FixtureServer: @unchecked Sendable {
    public let port: Int
    /// Every port the server listens on; `port` is the first.
    public let ports: [Int]
    private let process: ChildProcess

    private init(ports: [Int], process: ChildProcess) {
        self.port = ports[0]
        self.ports = ports
        self.process = process
    }

    /// One server shared by the tests that need no server-wide counters.
    public static let shared = Task { try await FixtureServer.start() }

    /// Starts a new server process listening on `ports` ports and waits for them; with
    /// `favicon: false`, `/favicon.ico` is a 404.
    public static func start(ports count: Int = 1, favicon: Bool = true) async throws -> FixtureServer {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/http_fixture_server.py")
        let process = try ChildProcess(
            "/usr/bin/env",
            ["python3", script.path, "--ports", String(count)] + (favicon ? [] : ["--no-favicon"]),
            stdin: .pipe,
            stdout: .pipe
        )
        // Reading a pipe blocks: never on the cooperative pool.
        let line = await offPool { process.readLine(seconds: 60) ?? "" }
        let ports = line.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Int($0) }
        guard ports.count == count else { throw FixtureError("fixture server did not print \(count) ports: \(line)") }
        return FixtureServer(ports: ports, process: process)
    }

    /// `http://127.0.0.1:<port><path>`.
    public func url(_ path: String, port: Int? = nil) -> String { "http://127.0.0.1:\(port ?? self.port)\(path)" }

    /// The requests the server saw for `key`.
    public func requests(_ key: String) async throws -> [SeenRequest] {
        let data = try await plainGET("/_requests/\(key)")
        return try JSONDecoder().decode([SeenRequest].self, from: data)
    }

    /// Requests seen for every key starting with `key` whose path starts with `prefix`.
    public func requestCount(keyPrefix key: String, pathPrefix prefix: String = "") async throws -> Int {
        let data = try await plainGET("/_count/\(key)?prefix=\(prefix)")
        return try JSONDecoder().decode(Int.self, from: data)
    }

    /// Returns once the server has seen `count` requests (see `requestCount`); polls.
    public func waitForRequests(key: String, prefix: String = "", count: Int) async throws {
        while try await requestCount(keyPrefix: key, pathPrefix: prefix) < count {
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Returns once the server has seen a request for `url` (its path's key); polls.
    public func waitForRequest(_ url: String) async throws {
        let segments = url.split(separator: "/")
        guard segments.count >= 4 else { throw FixtureError("no key in \(url)") }
        let key = String(segments[3].prefix(while: { $0 != "?" }))
        try await waitForRequests(key: key, count: 1)
    }

    /// The most `slow` requests that were in flight at once since the last reset.
    public func maxActive(reset: Bool = false) async throws -> Int {
        let data = try await plainGET("/_stats/x" + (reset ? "?reset=1" : ""))
        return try JSONDecoder().decode(Stats.self, from: data).maxActive
    }

    /// The body of a plain HTTP/1.0 GET, over a socket of its own: the fixture's bookkeeping
    /// never goes through the fetcher under test.
    private func plainGET(_ path: String) async throws -> Data {
        let port = self.port
        return try await offPool { try Self.blockingGET(path, port: port) }
    }

    private static func blockingGET(_ path: String, port: Int) throws -> Data {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw FixtureError("socket: errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw FixtureError("connect to fixture port \(port): errno \(errno)") }
        let request = Array("GET \(path) HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count
        else {
            throw FixtureError("send to fixture: errno \(errno)")
        }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = retryingEINTR { buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) } }
            guard count > 0 else { break }
            response += buffer[0..<count]
        }
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = response.indices.first(where: { response[$0...].starts(with: separator) }) else {
            throw FixtureError("fixture answered without a head")
        }
        return Data(response[(end + 4)...])
    }

    public struct SeenRequest: Decodable, Sendable {
        public var path: String
        public var ifNoneMatch: String?
        public var ifModifiedSince: String?
        public var userAgent: String?
        public var acceptEncoding: String?
        public var authorization: String?
    }

    private struct Stats: Decodable {
        var maxActive: Int
    }
}

public struct FixtureError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
