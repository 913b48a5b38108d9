import Foundation
import Glibc
import TestSupport
import Testing

/// `--svg FILE` (`layout solve`, and `preview` through the same writer) keeps what is at FILE
/// what it is: a regular file is replaced atomically, a symbolic link's target is written and the
/// link stays, a FIFO or a device is written in place. Each of these was replaced by a rename of
/// a temporary file (as root, `/dev/full` became a regular file).
@Suite(.timeLimit(.minutes(2)))
struct SVGOutputTests {
    let scratch: TemporaryDirectory

    init() throws {
        scratch = try TemporaryDirectory(prefix: "hf-svg")
    }

    static let solve = ["layout", "solve", "feeds/layout.json", "--width", "375", "--svg"]

    func solve(_ path: String) throws -> CommandRunner.Outcome {
        try CommandRunner(executable: "homefeedctl").run(Self.solve + [path])
    }

    /// The file type bits of what is at `path` itself (a link is not followed).
    func type(_ path: String) -> mode_t? {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : nil
    }

    @Test("a regular file is replaced atomically: a hard link to it keeps the old contents")
    func regularFile() throws {
        let path = try scratch.write("old", to: "out.svg")
        #expect(link(path, scratch.file("kept")) == 0)
        let outcome = try solve(path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("<svg"))
        #expect(try String(contentsOfFile: scratch.file("kept"), encoding: .utf8) == "old")
    }

    @Test("a symbolic link stays, and its target is written; a link to nothing yet creates its target")
    func symbolicLink() throws {
        try scratch.write("old", to: "target.svg")
        #expect(symlink("target.svg", scratch.file("link.svg")) == 0)
        #expect(symlink("new.svg", scratch.file("dangling.svg")) == 0)
        for (link, target) in [("link.svg", "target.svg"), ("dangling.svg", "new.svg")] {
            let outcome = try solve(scratch.file(link))
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(type(scratch.file(link)) == S_IFLNK, "\(link)")
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: scratch.file(link)) == target)
            #expect(try String(contentsOfFile: scratch.file(target), encoding: .utf8).hasPrefix("<svg"), "\(target)")
        }
    }

    @Test("a FIFO stays a FIFO, and its reader gets the SVG")
    func fifo() throws {
        let path = scratch.file("pipe.svg")
        #expect(mkfifo(path, 0o600) == 0)
        // Opened before the writer, without waiting for one: poll reports nothing until a writer
        // has come, then its data, then its end.
        let reader = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        try #require(reader >= 0)
        defer { close(reader) }
        let child = try ChildProcess(
            BuiltProducts.path("homefeedctl"),
            Self.solve + [path],
            stdout: .null,
            stderr: .null,
            directory: CommandRunner.packageRoot.path
        )
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            var descriptor = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
            // A writer that never comes (a FIFO replaced by a rename) ends the wait.
            guard poll(&descriptor, 1, 20_000) == 1 else { break }
            let count = read(reader, &chunk, chunk.count)
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) { break }
            if count > 0 { received += chunk[..<count] }
        }
        #expect(child.waitForExit() == 0)
        #expect(type(path) == S_IFIFO)
        let text = String(decoding: received, as: UTF8.self)
        #expect(text.hasPrefix("<svg") && text.hasSuffix("</svg>\n"))
    }

    @Test(
        "/dev/full stays a device, and the full disk is the error: exit 1, no frames",
        .enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "no /dev/full here")
    )
    func fullDevice() throws {
        let outcome = try solve("/dev/full")
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "homefeedctl: /dev/full: cannot write: No space left on device\n")
        #expect(outcome.stdout.isEmpty)
        #expect(type("/dev/full") == S_IFCHR)
    }
}
