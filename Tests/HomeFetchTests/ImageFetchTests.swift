import Foundation
import HomeFeeds
import HomeFetch
import TestSupport
import Testing

/// Images and service pages through the same fetch loop as feeds: stored as files while they
/// arrive, refused as soon as they are plainly no image, pages read up to the end of `<head>`.
@Suite(.timeLimit(.minutes(1)))
struct ImageFetchTests {
    static let imageLimits = FetchTesting.quickLimits(maxBodyBytes: 4 << 20)

    private func withDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
        let scratch = try TemporaryDirectory(prefix: "hf-fetch")
        let directory = scratch.url
        return try await body(directory.path)
    }

    /// The error an image fetch must end with.
    private func imageError(_ url: String, into directory: String) async throws -> FetchError {
        let result: Result<ImageDownload, FetchError>
        do throws(FetchError) {
            result = .success(
                try await FetchTesting.fetcher.fetchImage(
                    FetchRequest(url: url, limits: Self.imageLimits),
                    into: directory
                )
            )
        } catch {
            result = .failure(error)
        }
        switch result {
        case .success(let download):
            Issue.record("expected an error, got \(download)")
            throw FixtureError("no error")
        case .failure(let error):
            return error
        }
    }

    private func entries(_ directory: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    }

    @Test("a 304 to an image request that sent no validators is an HTTP error, and leaves no file")
    func unaskedNotModified() async throws {
        let server = try await FixtureServer.shared.value
        try await withDirectory { directory in
            let error = try await imageError(server.url("/status/\(FetchTesting.key())?code=304"), into: directory)
            #expect(error.kind == .httpStatus(304))
            #expect(entries(directory).isEmpty)
        }
    }

    @Test("an image is stored as it arrives, named by its SHA-256, then revalidated with its ETag")
    func storeAndRevalidate() async throws {
        let server = try await FixtureServer.shared.value
        let key = FetchTesting.key()
        try await withDirectory { directory in
            let url = server.url("/img/\(key)?name=icon.png")
            let first = try await FetchTesting.fetcher.fetchImage(
                FetchRequest(url: url, limits: Self.imageLimits),
                into: directory
            )
            guard case .fetched(let file, let response) = first else {
                Issue.record("expected a stored image, got \(first)")
                return
            }
            let stored = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file.path)))
            var hasher = SHA256()
            stored.withUnsafeBytes { hasher.update($0) }
            #expect(file.sha256 == hasher.finalizeHex())
            #expect(file.bytes == stored.count)
            #expect(stored.starts(with: [0x89, 0x50, 0x4E, 0x47]))
            #expect(response.validators.etag == "\"icon.png-\(stored.count)\"")
            let second = try await FetchTesting.fetcher.fetchImage(
                FetchRequest(url: url, validators: response.validators, limits: Self.imageLimits),
                into: directory
            )
            guard case .notModified = second else {
                Issue.record("expected 304, got \(second)")
                return
            }
            let seen = try await server.requests(key)
            #expect(seen.last?.ifNoneMatch == response.validators.etag)
        }
    }

    struct Refusal: Sendable, CustomTestStringConvertible {
        var path: String
        var expected: String
        var testDescription: String { path }
    }

    @Test(
        "bodies that are no image are refused at their first bytes and leave no file",
        arguments: [
            Refusal(path: "polyglot", expected: "not an image: the body is HTML or XML (served as image/png)"),
            Refusal(path: "svg", expected: "SVG is not rendered (served as image/svg+xml)"),
            Refusal(path: "feed", expected: "not an image: the body is HTML or XML (served as application/rss+xml)"),
        ]
    )
    func refused(_ refusal: Refusal) async throws {
        let server = try await FixtureServer.shared.value
        let key = FetchTesting.key()
        try await withDirectory { directory in
            let error = try await imageError(server.url("/\(refusal.path)/\(key)"), into: directory)
            #expect(error.kind == .notAnImage(refusal.expected))
            #expect(error.description.contains(refusal.expected))
            #expect(entries(directory).isEmpty)
            // The SVG's external reference was never fetched.
            #expect(try await server.requests(key + "-svgref").isEmpty)
        }
    }

    @Test("an image larger than the 4 MiB cap stops at the cap and leaves no file")
    func tooLarge() async throws {
        let server = try await FixtureServer.shared.value
        try await withDirectory { directory in
            let error = try await imageError(server.url("/bigimg/\(FetchTesting.key())?bytes=6000000"), into: directory)
            #expect(error.kind == .bodyTooLarge)
            #expect(error.bytesReceived <= (4 << 20) + (64 << 10))
            #expect(entries(directory).isEmpty)
        }
    }

    @Test("an image URL that redirects to file:///etc/passwd is refused")
    func redirectToFile() async throws {
        let server = try await FixtureServer.shared.value
        try await withDirectory { directory in
            let error = try await imageError(
                server.url("/redirect/\(FetchTesting.key())?code=302&to=file%3A%2F%2F%2Fetc%2Fpasswd"),
                into: directory
            )
            #expect(error.kind == .redirectRefused(to: "file:///etc/passwd"))
            #expect(entries(directory).isEmpty)
        }
    }

    @Test("a local image is copied with its size and time as validators")
    func localFile() async throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("TestSupport/Fixtures/images/photo.jpg")
        try await withDirectory { directory in
            let download = try await FetchTesting.fetcher.fetchImage(
                FetchRequest(url: fixture.absoluteString, limits: Self.imageLimits),
                into: directory
            )
            guard case .fetched(let file, let response) = download else {
                Issue.record("expected a copy, got \(download)")
                return
            }
            #expect(file.bytes == (try Data(contentsOf: fixture)).count)
            let again = try await FetchTesting.fetcher.fetchImage(
                FetchRequest(url: fixture.absoluteString, validators: response.validators, limits: Self.imageLimits),
                into: directory
            )
            #expect(again == .notModified(again.response))
        }
    }

    @Test("a service page is read to the end of its head, not further")
    func pageIcons() async throws {
        let server = try await FixtureServer.shared.value
        let key = FetchTesting.key()
        let icons = try await FetchTesting.fetcher.fetchPageIcons(
            FetchRequest(url: server.url("/page/\(key)"), limits: FetchTesting.quickLimits(maxBodyBytes: 512 << 10))
        )
        #expect(icons.isHeadComplete)
        #expect(
            icons.candidates() == [
                .image(server.url("/img/\(key)?name=icon.png")),
                .image(server.url("/img/\(key)?name=favicon.ico")),
                .manifest(server.url("/manifest/\(key)")),
                .image(server.url("/favicon.ico")),
            ]
        )
        let manifest = try await FetchTesting.fetcher.fetchManifestIcons(
            FetchRequest(url: server.url("/manifest/\(key)"))
        )
        #expect(manifest.map(\.url) == [server.url("/img/\(key)?name=icon.png")])
    }

    @Test("a head that never ends stops at the page cap with what it declared")
    func endlessHead() async throws {
        let server = try await FixtureServer.shared.value
        let icons = try await FetchTesting.fetcher.fetchPageIcons(
            FetchRequest(
                url: server.url("/page/\(FetchTesting.key())?variant=endless"),
                limits: FetchTesting.quickLimits(maxBodyBytes: 256 << 10)
            )
        )
        #expect(!icons.isHeadComplete)
        #expect(icons.candidates() == [.image(server.url("/favicon.ico"))])
    }

    @Test("a head that never ends grows the peak RSS of a process by less than 16 MiB")
    func endlessHeadMemory() async throws {
        let server = try await FixtureServer.shared.value
        let report = try await FetchProbeRun.run(
            [server.url("/page/\(FetchTesting.key())?variant=endless"), "--mode", "page", "--max-body", "524288"]
        )
        #expect(report.outcome == "headIncomplete")
        let growthKiB = report.hwmAfterKiB - report.hwmBeforeKiB
        #expect(report.hwmBeforeKiB > 0)
        #expect(growthKiB < 16 << 10, "peak RSS grew by \(growthKiB) KiB")
    }
}
