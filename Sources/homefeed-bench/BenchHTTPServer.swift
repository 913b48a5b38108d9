import Foundation
import Glibc
import SystemCalls

/// A loopback HTTP/1.1 server for `homefeed-bench fetch`: keep-alive, one thread per
/// connection, blocking syscalls, no parsing beyond the request line and `If-None-Match`.
///
/// Paths: `/feed/N` (a 20-item RSS feed with `ETag: "v1"`; `304` when `If-None-Match: "v1"`),
/// `/bomb` (a gzip body that inflates without end), `/stall` (headers and the start of a body,
/// then nothing until the client leaves), and any path of `bodies` (200, no validators).
final class BenchHTTPServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let bodies: [String: [UInt8]]

    static let feedBody: [UInt8] = {
        var xml = #"<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Bench</title>"#
        for index in 0..<20 {
            xml += "<item><title>Notice \(index)</title><link>https://bench.example/\(index)</link>"
            xml += "<guid>bench-\(index)</guid><description>Item \(index) of the benchmark feed.</description></item>"
        }
        return Array((xml + "</channel></rss>").utf8)
    }()

    init(bodies: [String: [UInt8]] = [:]) throws {
        self.bodies = bodies
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var on: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(listener, address, length) == 0 && listen(listener, 512) == 0
                    && getsockname(listener, address, &length) == 0
            }
        }
        guard listener >= 0, bound else { throw BenchError("bench HTTP server: bind: errno \(errno)") }
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread {
            while true {
                let fd = retryingEINTR { accept(listener, nil, nil) }
                guard fd >= 0 else { return }
                var on: Int32 = 1
                setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
                let connection = Thread { [bodies] in Self.serve(fd, bodies: bodies) }
                connection.stackSize = 256 << 10
                connection.start()
            }
        }
        thread.start()
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    private static func serve(_ fd: Int32, bodies: [String: [UInt8]]) {
        defer { close(fd) }
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        let end: [UInt8] = [13, 10, 13, 10]
        while true {
            guard let headEnd = pending.firstRange(of: end) else {
                let count = retryingEINTR { buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) } }
                guard count > 0 else { return }
                pending += buffer[0..<count]
                continue
            }
            let head = String(decoding: pending[..<headEnd.lowerBound], as: UTF8.self)
            pending.removeSubrange(..<headEnd.upperBound)
            let path = head.split(separator: " ", maxSplits: 2).dropFirst().first.map(String.init) ?? "/"
            let revalidates = head.lowercased().contains("if-none-match: \"v1\"")
            switch path {
            case "/bomb":
                serveBomb(fd)
                return
            case "/stall":
                let start =
                    "HTTP/1.1 200 OK\r\nContent-Type: application/rss+xml\r\nConnection: close\r\n\r\n<rss><channel>"
                guard VarlinkBenchmark.writeFully(fd, Array(start.utf8)) else { return }
                while buffer.withUnsafeMutableBytes({ recv(fd, $0.baseAddress, $0.count, 0) }) > 0 {}
                return
            case let path where bodies[path] != nil:
                let body = bodies[path] ?? []
                let head =
                    "HTTP/1.1 200 OK\r\nContent-Type: application/rss+xml\r\nContent-Length: \(body.count)\r\n\r\n"
                guard VarlinkBenchmark.writeFully(fd, Array(head.utf8)), VarlinkBenchmark.writeFully(fd, body) else {
                    return
                }
            default:
                let response =
                    revalidates
                    ? Array("HTTP/1.1 304 Not Modified\r\nETag: \"v1\"\r\n\r\n".utf8)
                    : Array(
                        ("HTTP/1.1 200 OK\r\nContent-Type: application/rss+xml\r\nETag: \"v1\"\r\n"
                            + "Content-Length: \(feedBody.count)\r\n\r\n").utf8
                    ) + feedBody
                guard VarlinkBenchmark.writeFully(fd, response) else { return }
            }
        }
    }

    private static func serveBomb(_ fd: Int32) {
        let head =
            "HTTP/1.1 200 OK\r\nContent-Type: application/rss+xml\r\nContent-Encoding: gzip\r\nConnection: close\r\n\r\n"
        guard VarlinkBenchmark.writeFully(fd, Array(head.utf8) + GzipBomb.start) else { return }
        while VarlinkBenchmark.writeFully(fd, GzipBomb.unit) {}
    }
}

/// A gzip stream of a feed's start followed by spaces without end, written bit by bit as one
/// fixed-Huffman deflate block (RFC 1951 §3.2.6): a literal space, then matches of length 258
/// at distance 1, 13 bits each for 258 bytes. `start` ends byte-aligned and `unit` (8 × 4 096
/// matches, 8.5 MB inflated in 53 KB) starts and ends aligned, so `start + unit + unit + …`
/// is one valid, never-ending stream.
enum GzipBomb {
    static let start: [UInt8] = {
        var writer = BitWriter()
        writer.bytes = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]  // gzip header, no name, unknown OS
        writer.write(0, bits: 1)  // BFINAL: not the last block
        writer.write(1, bits: 2)  // BTYPE 01: fixed Huffman codes
        for byte in Array(#"<?xml version="1.0"?><rss version="2.0"><channel> "#.utf8) {
            writer.writeHuffman(0x30 + UInt32(byte), bits: 8)  // literals 0-143: 8-bit codes from 0x30
        }
        // 3 + 8 L + 13 N ≡ 0 (mod 8) needs N ≡ 1 (mod 8): one match aligns the stream.
        writer.writeRun()
        return writer.bytes
    }()

    static let unit: [UInt8] = {
        var writer = BitWriter()
        for _ in 0..<(8 * 4096) { writer.writeRun() }
        return writer.bytes
    }()

    struct BitWriter {
        var bytes: [UInt8] = []
        private var accumulator: UInt32 = 0
        private var count: UInt32 = 0

        /// `value`'s low `bits` bits, least significant first (deflate's packing of data).
        mutating func write(_ value: UInt32, bits: UInt32) {
            for bit in 0..<bits {
                accumulator |= ((value >> bit) & 1) << count
                count += 1
                if count == 8 {
                    bytes.append(UInt8(accumulator))
                    accumulator = 0
                    count = 0
                }
            }
        }

        /// A Huffman code, most significant bit first (RFC 1951 §3.1.1).
        mutating func writeHuffman(_ code: UInt32, bits: UInt32) {
            for bit in (0..<bits).reversed() { write((code >> bit) & 1, bits: 1) }
        }

        /// Length 258 (code 285: 8-bit 0b1100_0101), distance 1 (code 0: 5 bits 0).
        mutating func writeRun() {
            writeHuffman(0b1100_0101, bits: 8)
            writeHuffman(0, bits: 5)
        }
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
