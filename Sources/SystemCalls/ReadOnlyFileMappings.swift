#if canImport(Glibc)
    internal import Glibc
#endif

/// The process's read-only mappings of files: its executable's code, the shared libraries', the
/// fonts FreeType maps, as `/proc/self/maps` lists them.
///
/// Why: most of a Swift daemon's resident memory is file-backed code it ran once. The kernel
/// maps a fault's neighbours with it (fault-around), and keeps every page mapped until memory
/// runs short, so start-up (configuration, migrations, fontconfig's scan, Pango's first layout)
/// and an ingest leave ~12 MB of code resident in an idle `homefeedd` (issue 17). Paging it out
/// once the daemon is quiet leaves resident what serving touches again.
public enum ReadOnlyFileMappings {
    /// The most of `/proc/self/maps` read: a few hundred mappings take ~40 KB.
    static let mapsLimit = 1 << 20

    /// Asks the kernel to reclaim, now, the pages of every read-only file mapping
    /// (`madvise(MADV_PAGEOUT)`, Linux 5.4).
    ///
    /// Never loses data: the pages are clean copies of their files, read back on the next touch;
    /// the kernel skips pages another process maps too (a shared libc stays where it is), and a
    /// mapping replaced between the listing and the advice is only paged out, never discarded
    /// (which is why this is not `MADV_DONTNEED`, which would drop the relocated copy-on-write
    /// pages of a RELRO segment). Writable and anonymous mappings are left alone.
    ///
    /// - Returns: the bytes of the mappings advised, or nil when `/proc/self/maps` cannot be
    ///   read or the kernel refuses the advice (`EINVAL` before Linux 5.4).
    @discardableResult
    public static func pageOut() -> Int? {
        guard let maps = read("/proc/self/maps", limit: mapsLimit) else { return nil }
        var advised = 0
        for line in maps.split(separator: UInt8(ascii: "\n")) {
            guard let range = pageOutCandidate(line) else { continue }
            if madvise(UnsafeMutableRawPointer(bitPattern: range.start), range.length, MADV_PAGEOUT) == 0 {
                advised += range.length
            } else if errno == EINVAL {
                return nil
            }
            // ENOMEM: the mapping went away since the listing; nothing to do.
        }
        return advised
    }

    /// The process's resident file-backed (and shared-memory) pages, in bytes: the third field
    /// of `/proc/self/statm` (`RssFile` + `RssShmem`), nil when it cannot be read. Cheap: no walk
    /// over the mappings.
    public static func residentFileBytes() -> Int? {
        // "size resident shared text lib data dt", in pages.
        guard let statm = read("/proc/self/statm", limit: 256) else { return nil }
        let fields = statm.split(separator: UInt8(ascii: " "))
        guard fields.count >= 3, let pages = Int(String(decoding: fields[2], as: UTF8.self)) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The address range of a `/proc/self/maps` line worth paging out: readable, not writable,
    /// private, backed by a file (an inode and an absolute path; not the heap, a stack, the vDSO
    /// or shared memory).
    ///
    /// A line reads `start-end perms offset dev inode path`, e.g.
    /// `7f2c1000-7f2c9000 r-xp 00002000 fe:00 1234 /usr/lib/x86_64-linux-gnu/libz.so.1`.
    static func pageOutCandidate(_ line: ArraySlice<UInt8>) -> (start: UInt, length: Int)? {
        var fields: [ArraySlice<UInt8>] = []
        var index = line.startIndex
        while index < line.endIndex, fields.count < 6 {
            while index < line.endIndex, line[index] == UInt8(ascii: " ") { index += 1 }
            let start = index
            // The path is the rest of the line (it may contain spaces).
            if fields.count == 5 {
                index = line.endIndex
            } else {
                while index < line.endIndex, line[index] != UInt8(ascii: " ") { index += 1 }
            }
            if start < index { fields.append(line[start..<index]) }
        }
        guard fields.count == 6 else { return nil }
        let permissions = Array(fields[1])
        guard permissions.count == 4, permissions[0] == UInt8(ascii: "r"), permissions[1] != UInt8(ascii: "w"),
            permissions[3] == UInt8(ascii: "p"),
            fields[4] != [UInt8(ascii: "0")], fields[5].first == UInt8(ascii: "/")
        else { return nil }
        guard let dash = fields[0].firstIndex(of: UInt8(ascii: "-")),
            let start = UInt(String(decoding: fields[0][..<dash], as: UTF8.self), radix: 16),
            let end = UInt(String(decoding: fields[0][(dash + 1)...], as: UTF8.self), radix: 16), end > start
        else { return nil }
        return (start, Int(end - start))
    }

    /// The contents of a /proc file, at most `limit` bytes; nil when it cannot be read.
    private static func read(_ path: String, limit: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while bytes.count < limit {
            let count = chunk.withUnsafeMutableBytes { buffer in
                retryingEINTR { Glibc.read(fd, buffer.baseAddress, buffer.count) }
            }
            if count < 0 { return nil }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        return bytes
    }
}
