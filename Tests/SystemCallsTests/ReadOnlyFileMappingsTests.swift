import Glibc
import Testing

@testable import SystemCalls

@Suite("ReadOnlyFileMappings")
struct ReadOnlyFileMappingsTests {
    func candidate(_ line: String) -> (start: UInt, length: Int)? {
        ReadOnlyFileMappings.pageOutCandidate(ArraySlice(Array(line.utf8)))
    }

    @Test("a read-only mapping of a file is paged out: its range is the line's first field")
    func readOnlyFile() throws {
        let code = try #require(
            candidate("7f2c10000000-7f2c10008000 r-xp 00002000 fe:00 1234   /usr/lib/x86_64-linux-gnu/libz.so.1.2.13")
        )
        #expect(code.start == 0x7f2c_1000_0000)
        #expect(code.length == 0x8000)
        let data = try #require(candidate("55d0a000-55d0b000 r--p 00000000 fe:00 99 /usr/share/fonts/a font.ttf"))
        #expect(data.length == 0x1000)
    }

    @Test(
        "writable, unreadable, shared, anonymous and special mappings are left alone",
        arguments: [
            "7f2c10000000-7f2c10008000 rw-p 00002000 fe:00 1234 /usr/lib/libz.so.1",
            "7f2c10000000-7f2c10008000 ---p 00002000 fe:00 1234 /usr/lib/libz.so.1",
            "7f2c10000000-7f2c10008000 r--p 00000000 00:00 0 ",
            "55d0a000-55d0b000 rw-p 00000000 00:00 0 [heap]",
            "7ffd1000-7ffd3000 r-xp 00000000 00:00 0 [vdso]",
            "7f2c10000000-7f2c10008000 r--s 00000000 00:05 17 /memfd:shared (deleted)",
        ]
    )
    func leftAlone(line: String) {
        #expect(candidate(line) == nil)
    }

    @Test(
        "a malformed line is skipped, not misread",
        arguments: [
            "", "7f2c1000 r-xp 0 fe:00 1 /lib/a", "zz-7f2c1000 r-xp 0 fe:00 1 /lib/a",
            "1000-0800 r-xp 0 fe:00 1 /lib/a",
        ]
    )
    func malformed(line: String) {
        #expect(candidate(line) == nil)
    }

    /// Whether this kernel takes MADV_PAGEOUT (Linux 5.4), tried on a page of our own.
    static let kernelPagesOut: Bool = {
        let size = Int(sysconf(Int32(_SC_PAGESIZE)))
        guard let page = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            page != MAP_FAILED
        else { return false }
        defer { munmap(page, size) }
        return madvise(page, size, MADV_PAGEOUT) == 0
    }()

    /// A directory on a disk-backed filesystem: tmpfs pages are shared memory, which reclaim
    /// can only swap (nil when none of these is one).
    static let diskDirectory: String? = [".build", "/var/tmp", "/tmp"].first { path in
        guard access(path, W_OK) == 0, let real = realpath(path, nil) else { return false }
        defer { free(real) }
        return filesystemType(of: String(cString: real)).map { $0 != "tmpfs" } ?? false
    }

    /// The type of the filesystem `path` (absolute, resolved) is on: the /proc/self/mounts
    /// entry with the longest mount point that contains it.
    static func filesystemType(of path: String) -> String? {
        var best: (mountPoint: String, type: String)?
        for line in lines(of: "/proc/self/mounts") {
            let fields = line.split(separator: " ")
            guard fields.count >= 3 else { continue }
            let mountPoint = String(fields[1])
            let contains = path == mountPoint || path.hasPrefix(mountPoint == "/" ? "/" : mountPoint + "/")
            if contains, mountPoint.count >= (best?.mountPoint.count ?? 0) {
                best = (mountPoint, String(fields[2]))
            }
        }
        return best?.type
    }

    /// The `Rss:` of the mapping at `address` in /proc/self/smaps, in KiB.
    static func residentKiB(ofMappingAt address: UnsafeRawPointer) -> Int? {
        let start = String(UInt(bitPattern: address), radix: 16) + "-"
        var inMapping = false
        for text in lines(of: "/proc/self/smaps") {
            if text.first?.isHexDigit == true, text.contains("-") {
                inMapping = text.hasPrefix(start)
            } else if inMapping, text.hasPrefix("Rss:") {
                return Int(text.dropFirst(4).filter(\.isNumber))
            }
        }
        return nil
    }

    /// A 1 MiB file of our own, mapped twice: read-only, and writable with every page written.
    /// No other test touches these mappings, so their resident sizes are this test's alone.
    @Test(
        "a read-only file mapping is paged out; a written private mapping of the same file keeps its bytes",
        .enabled(if: kernelPagesOut, "the kernel lacks MADV_PAGEOUT (Linux 5.4)"),
        .enabled(if: diskDirectory != nil, "no disk-backed directory to map a file from")
    )
    func pagesOut() throws {
        var template = Array(((Self.diskDirectory ?? "/tmp") + "/hf-pageout.XXXXXX").utf8CString)
        let fd = mkstemp(&template)
        try #require(fd >= 0)
        defer {
            close(fd)
            unlink(template)
        }
        let size = 1 << 20
        let pattern = [UInt8](repeating: 0x5A, count: size)
        #expect(pattern.withUnsafeBytes { write(fd, $0.baseAddress, size) } == size)
        // Clean in the page cache: reclaim leaves dirty file pages to writeback.
        #expect(fsync(fd) == 0)

        let readOnly = try #require(mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0))
        try #require(readOnly != MAP_FAILED)
        defer { munmap(readOnly, size) }
        let written = try #require(mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0))
        try #require(written != MAP_FAILED)
        defer { munmap(written, size) }
        var sum = 0
        for offset in stride(from: 0, to: size, by: 4096) {
            sum += Int(readOnly.load(fromByteOffset: offset, as: UInt8.self))
            written.storeBytes(of: 0xA5, toByteOffset: offset, as: UInt8.self)
        }
        #expect(sum == 0x5A * 256)
        let before = try #require(Self.residentKiB(ofMappingAt: readOnly))
        #expect(before == 1024)

        let advised = try #require(ReadOnlyFileMappings.pageOut())
        #expect(advised >= size)
        // The kernel reclaimed the read-only pages (no other process maps this file) ...
        #expect(try #require(Self.residentKiB(ofMappingAt: readOnly)) < before / 2)
        // ... and left the written copy-on-write pages, with what was written in them.
        #expect(try #require(Self.residentKiB(ofMappingAt: written)) == 1024)
        #expect(written.load(fromByteOffset: 4096, as: UInt8.self) == 0xA5)
        #expect(written.load(fromByteOffset: 4097, as: UInt8.self) == 0x5A)
    }

    @Test("the resident file-backed bytes agree with RssFile of /proc/self/status")
    func residentFileBytes() throws {
        let statm = try #require(ReadOnlyFileMappings.residentFileBytes())
        let status = try #require(Self.statusKiB("RssFile")) + (Self.statusKiB("RssShmem") ?? 0)
        // Read a moment apart: other tests fault pages in and out meanwhile.
        #expect(statm > 0)
        #expect(abs(statm / 1024 - status) < max(status / 4, 4096), "statm \(statm / 1024) KiB, status \(status) KiB")
    }

    /// A `Key: N kB` line of /proc/self/status, in KiB.
    static func statusKiB(_ key: String) -> Int? {
        for text in lines(of: "/proc/self/status") {
            if text.hasPrefix(key + ":") { return Int(text.dropFirst(key.count + 1).filter(\.isNumber)) }
        }
        return nil
    }

    /// The lines of a /proc file (a line longer than 4 KiB comes in pieces, as fgets gives it).
    static func lines(of path: String) -> [String] {
        guard let file = fopen(path, "r") else { return [] }
        defer { fclose(file) }
        var lines: [String] = []
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), file) != nil {
            lines.append(String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return lines
    }
}
