// `struct timespec` reaches HomeDaemon through both Glibc and CSystem's <sys/types.h>; Clang
// merges the two and Swift may credit either module with its members (release builds did),
// so MemberImportVisibility needs both imported.
import CSystem
import Glibc
import SystemCalls

/// The sd_notify(3) protocol without libsystemd (varlink-and-systemd.md §6, §11): one
/// `AF_UNIX` datagram per message to `$NOTIFY_SOCKET`, newline-separated `KEY=VALUE` lines.
///
/// A path (`/run/systemd/notify`) and an abstract name (`@name`, sent as a leading NUL) are
/// supported; the address length is exact, since `sizeof(sockaddr_un)` would name a different
/// abstract socket (§6.3). Without `$NOTIFY_SOCKET` (or with a `vsock:` one) every send is a
/// no-op, so the daemon runs the same outside systemd. Sendable: immutable.
public struct SystemdNotifier: Sendable {
    /// Where messages go: a filesystem path or an abstract name (without the `@`).
    public enum Address: Sendable, Equatable {
        case path(String)
        case abstract(String)
    }

    public let address: Address?

    /// Reads `$NOTIFY_SOCKET`; nil address when unset, empty, not a Unix address, or too long.
    public init(environment: [String: String]) {
        self.init(socket: environment["NOTIFY_SOCKET"])
    }

    public init(socket value: String?) {
        guard let value, let first = value.first else {
            address = nil
            return
        }
        // A path needs its NUL in sun_path; an abstract name its leading NUL, where `@` stands.
        let capacity = UnixSocketAddress.sunPathCapacity
        switch first {
        case "/" where value.utf8.count < capacity: address = .path(value)
        case "@" where value.utf8.count <= capacity: address = .abstract(String(value.dropFirst()))
        default: address = nil
        }
    }

    public var isEnabled: Bool { address != nil }

    /// Sends `fields` (`KEY=VALUE` each) as one datagram.
    ///
    /// - Returns: `true` when sent, `false` when disabled or the send failed (never fatal:
    ///   a manager that went away must not take the daemon down).
    @discardableResult
    public func send(_ fields: [String]) -> Bool {
        guard let address else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let payload = Array(fields.joined(separator: "\n").utf8)
        let send = { (pointer: UnsafePointer<sockaddr>, length: socklen_t) in
            payload.withUnsafeBytes { bytes in
                retryingEINTR { sendto(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), pointer, length) }
            }
        }
        let sent: Int?
        switch address {
        case .path(let path): sent = UnixSocketAddress.withSockaddr(path, abstract: false, send)
        case .abstract(let name): sent = UnixSocketAddress.withSockaddr(name, abstract: true, send)
        }
        return sent == payload.count
    }

    public func ready(status: String? = nil) { send(["READY=1"] + Self.statusField(status)) }

    public func status(_ text: String) { send(Self.statusField(text)) }

    /// `RELOADING=1` with `MONOTONIC_USEC` (required by `Type=notify-reload`, systemd ≥ 253).
    public func reloading(status: String? = nil) {
        send(["RELOADING=1", "MONOTONIC_USEC=\(Self.monotonicMicroseconds())"] + Self.statusField(status))
    }

    public func stopping(status: String? = nil) { send(["STOPPING=1"] + Self.statusField(status)) }

    /// `EXTEND_TIMEOUT_USEC`: the start (or stop) goes on, and the service sends `READY=1` (or
    /// another extension) within `seconds` from now (systemd ≥ 236). Not added to the unit's
    /// timeout, and counted from the message: work longer than `seconds` sends it again
    /// (``StartTimeoutExtension``).
    public func extendTimeout(seconds: Int, status: String? = nil) {
        send(["EXTEND_TIMEOUT_USEC=\(seconds * 1_000_000)"] + Self.statusField(status))
    }

    public func watchdog(status: String? = nil) { send(["WATCHDOG=1"] + Self.statusField(status)) }

    /// `CLOCK_MONOTONIC` in microseconds, the clock systemd compares `MONOTONIC_USEC` with.
    public static func monotonicMicroseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
    }

    /// A `STATUS=` field: one line, so newlines become spaces.
    static func statusField(_ text: String?) -> [String] {
        guard let text else { return [] }
        return ["STATUS=" + text.map { $0.isNewline ? " " : String($0) }.joined()]
    }
}
