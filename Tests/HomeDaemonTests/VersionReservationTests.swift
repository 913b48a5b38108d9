import Foundation
import TestSupport
import Testing

@testable import HomeDaemon

/// The version reservation beside the store: written in blocks, read back, bad contents named.
@Suite struct VersionReservationTests {
    @Test("a version above the reservation writes the next block; versions within it write nothing")
    func blocks() throws {
        let directory = try TemporaryDirectory(prefix: "hf-reserve")
        var (reservation, warning) = VersionReservation.read(in: directory.url.path)
        #expect(warning == nil)
        #expect(reservation.reserved == 0)
        try reservation.cover(1)
        #expect(reservation.reserved == VersionReservation.block)
        let file = directory.url.appendingPathComponent(VersionReservation.fileName)
        #expect(try String(contentsOf: file, encoding: .utf8) == "\(VersionReservation.block)\n")
        try FileManager.default.removeItem(at: file)
        try reservation.cover(VersionReservation.block)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        try reservation.cover(VersionReservation.block + 1)
        #expect(VersionReservation.read(in: directory.url.path).0.reserved == 2 * VersionReservation.block)
    }

    @Test("settling writes exactly the version given; the next version above it reserves a new block")
    func settle() throws {
        let directory = try TemporaryDirectory(prefix: "hf-reserve")
        var reservation = VersionReservation.read(in: directory.url.path).0
        try reservation.cover(7)
        try reservation.settle(at: 8)
        #expect(reservation.reserved == 8)
        #expect(VersionReservation.read(in: directory.url.path).0.reserved == 8)
        try reservation.cover(9)
        #expect(VersionReservation.read(in: directory.url.path).0.reserved == 8 + VersionReservation.block)
    }

    @Test("a reservation file that holds no version number is named in a warning and reserves nothing")
    func badFile() throws {
        let directory = try TemporaryDirectory(prefix: "hf-reserve")
        let file = directory.url.appendingPathComponent(VersionReservation.fileName)
        // A number too large to count on from (review finding: Int.max trapped at the next
        // version, at every start) is refused the same way.
        for text in ["12a", "-1", "\(Int.max)", "\((1 << 53) + 1)"] {
            try Data("\(text)\n".utf8).write(to: file)
            let (reservation, warning) = VersionReservation.read(in: directory.url.path)
            #expect(reservation.reserved == 0)
            #expect(
                warning
                    == "\(file.path): expected a version number from 0 to 9007199254740992, got \"\(text)\"; "
                    + "versions continue from the store's"
            )
        }
        try Data("9007199254740992\n".utf8).write(to: file)
        #expect(VersionReservation.read(in: directory.url.path).0.reserved == 1 << 53)
    }
}
