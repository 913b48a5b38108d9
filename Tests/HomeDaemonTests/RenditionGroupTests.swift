import Foundation
import Glibc
import LogCore
import Synchronization
import TestSupport
import Testing

@testable import HomeDaemon

/// Which group the image cache gives its shared files to, and what it says when it cannot.
@Suite struct RenditionGroupTests {
    /// Records each group change asked for; fails them all with `EPERM`, as the shipped unit's
    /// system call filter does.
    final class Changes: Sendable {
        let asked = Mutex<[String]>([])
        var changeGroup: @Sendable (String, gid_t) -> Int32 {
            { [self] path, id in
                asked.withLock { $0.append("\(URL(fileURLWithPath: path).lastPathComponent):\(id)") }
                return EPERM
            }
        }
    }

    static let groups: [String: gid_t] = ["video": 44_044, "audio": 29_029, "own": getegid()]

    @Test("a file that has the group already is left alone: no chown, nothing logged")
    func ownGroup() throws {
        let directory = try TemporaryDirectory(prefix: "hf-group")
        let path = directory.file("a.webp")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let changes = Changes()
        let log = LogRecorder()
        let group = RenditionGroup(
            name: "own",
            logger: Logger(label: "images", sink: log.sink),
            resolve: { Self.groups[$0] },
            changeGroup: changes.changeGroup
        )
        group.share(path)
        #expect(changes.asked.withLock { $0 }.isEmpty)
        #expect(log.lines.isEmpty)
    }

    @Test("a failed chown is logged once per group, naming the path, the group and the error")
    func failureLoggedOnce() throws {
        let directory = try TemporaryDirectory(prefix: "hf-group")
        let paths = ["a.webp", "b.webp", "c.webp"].map { directory.file($0) }
        for path in paths { #expect(FileManager.default.createFile(atPath: path, contents: Data())) }
        let changes = Changes()
        let log = LogRecorder()
        let group = RenditionGroup(
            name: "video",
            logger: Logger(label: "images", sink: log.sink),
            resolve: { Self.groups[$0] },
            changeGroup: changes.changeGroup
        )
        group.share(paths[0])
        group.share(paths[1])
        #expect(
            log.lines == [
                "<4>images: cannot give \(paths[0]) to group video (gid 44044): chown: Operation not permitted "
                    + "(errno 1); image files keep the daemon's group, so clients must be in that group "
                    + "(docs/images.md); logged once"
            ]
        )
        // A reload's group: files go to it from now on, and its failure is told again.
        group.update(name: "audio")
        #expect(group.current.name == "audio" && group.current.id == 29_029)
        group.share(paths[2])
        #expect(log.lines.count == 2)
        #expect(log.lines.last?.contains("to group audio (gid 29029)") == true)
        // No group: nothing is asked.
        group.update(name: nil)
        group.share(paths[2])
        #expect(changes.asked.withLock { $0 } == ["a.webp:44044", "b.webp:44044", "c.webp:29029"])
    }
}
