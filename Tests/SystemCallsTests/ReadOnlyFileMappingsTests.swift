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

    /// `RssFile` of /proc/self/status, in KiB.
    static func residentFileKiB() -> Int? {
        guard let file = fopen("/proc/self/status", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if text.hasPrefix("RssFile:") {
                return Int(text.dropFirst(8).filter(\.isNumber))
            }
        }
        return nil
    }

    @Test(
        "paging out lowers this process's file-backed resident memory",
        .enabled(if: kernelPagesOut, "the kernel lacks MADV_PAGEOUT (Linux 5.4)")
    )
    func pagesOut() throws {
        let before = try #require(Self.residentFileKiB())
        let advised = try #require(ReadOnlyFileMappings.pageOut())
        let after = try #require(Self.residentFileKiB())
        // The test binary's own code is mapped by no other process: the kernel reclaims it.
        #expect(advised > 0)
        #expect(after < before, "RssFile \(before) KiB before, \(after) KiB after")
    }
}
