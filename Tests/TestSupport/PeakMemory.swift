import Glibc

/// The process's peak resident memory (`VmHWM` in `/proc/self/status`), reset to the current
/// resident size first (`/proc/self/clear_refs`, Linux ≥ 4.0), so a test can bound what one
/// call adds to the peak without asserting on time.
public enum PeakMemory {
    /// Whether the peak can be reset here; without a reset an earlier, higher peak would hide
    /// any growth and a bound on it could not fail.
    public static let isResettable: Bool = reset() && kibibytes("VmHWM") != nil

    /// Sets the peak to the current resident size.
    @discardableResult
    public static func reset() -> Bool {
        let fd = open("/proc/self/clear_refs", O_WRONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return write(fd, "5", 1) == 1
    }

    /// A `Vm…` line of `/proc/self/status`, in KiB.
    public static func kibibytes(_ field: String) -> Int? {
        let fd = open("/proc/self/status", O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            bytes += chunk[0..<n]
        }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.dropFirst(field.count + 1).filter { $0.isNumber })
        }
        return nil
    }

    /// How many KiB `body` added to the peak resident memory, and what it returned.
    public static func growth<T>(_ body: () -> T) -> (kibibytes: Int, result: T) {
        reset()
        let before = kibibytes("VmHWM") ?? 0
        let result = body()
        return ((kibibytes("VmHWM") ?? 0) - before, result)
    }
}
