// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "homefeed",
    products: [
        .library(name: "HomeLayout", targets: ["HomeLayout"]),
        .library(name: "HomeFeeds", targets: ["HomeFeeds"]),
        .library(name: "HomeStore", targets: ["HomeStore"]),
        .library(name: "HomeFetch", targets: ["HomeFetch"]),
        .library(name: "Varlink", targets: ["Varlink"]),
        .executable(name: "homefeedd", targets: ["homefeedd"]),
        .executable(name: "homefeedctl", targets: ["homefeedctl"]),
        .executable(name: "homefeed-bench", targets: ["homefeed-bench"]),
        .executable(name: "homefeed-thumbnail", targets: ["homefeed-thumbnail"]),
    ],
    targets: [
        // C libraries from Debian's -dev packages (swift-on-linux.md §1).
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CPango", pkgConfig: "pangoft2", providers: [.apt(["libpango1.0-dev"])]),
        // Only homefeed-thumbnail links libvips; the daemon never does (docs/images.md). pkg-config
        // "gobject-2.0", not "vips": vips.pc's cflags carry -pthread, which SwiftPM refuses with a
        // warning on every build; GLib's include paths are all the headers need (vips itself is
        // in /usr/include), and the module map links libvips.
        .systemLibrary(name: "CVips", pkgConfig: "gobject-2.0", providers: [.apt(["libvips-dev"])]),
        // The _GNU_SOURCE calls Glibc's module hides: accept4, SO_PEERCRED (swift-on-linux.md §1.6).
        .target(name: "CSystem"),
        // What every target that makes system calls shares (Glibc only): the EINTR retry loop, the
        // write-all loop and the sockaddr_un builder.
        .target(name: "SystemCalls"),

        // Libraries, bottom layer first. Arrows point one way (architecture.md).
        // JSON for every target that reads or writes it (standard library only): the lexer and
        // tree parser shared by layout specs, Varlink and the thumbnail protocol, and the one
        // streaming writer behind the layout output, the manifest, Varlink and the feed output.
        .target(name: "JSONCore"),
        // The one log level type, shared by every target that logs (standard library only).
        .target(name: "LogCore"),
        // The release version, written once: the User-Agent, GetInfo and every `--version`.
        .target(name: "HomefeedVersion"),
        // Declarative command tables: parsing, help, usage errors, exit statuses and bash
        // completion for every executable (standard library only).
        .target(name: "CommandTable", dependencies: ["SystemCalls"]),
        // The line protocol between homefeedd and homefeed-thumbnail (standard library only).
        .target(name: "ThumbnailProtocol", dependencies: ["JSONCore"]),
        // Pure Swift, no Foundation: only libm for floor/round.
        .target(name: "HomeLayout", dependencies: ["JSONCore"], linkerSettings: [.linkedLibrary("m")]),
        // Dynamic exclusivity checks stay on in release builds, here and in Varlink: both parse
        // hostile input, and a flag is per target, not per proven-safe function. Measured when
        // the flag went (issue 15, one loaded 2-core machine): parse 3.7x → 3.9x the libxml2
        // floor (RSS) and 2.6x → 2.8x (Atom); a Varlink call's server CPU 8.1-8.9 → 9.1-9.5 µs.
        // A field proven safe opts out alone, in release builds only (`@exclusivity(unchecked)`:
        // the Varlink loop's EventLoop, Connection.state and Splicer).
        .target(name: "HomeFeeds", dependencies: ["CLibXML2", "CSystem", "JSONCore"]),
        .target(name: "HomeStore", dependencies: ["CSQLite", "JSONCore"]),
        .target(
            name: "HomeFetch",
            dependencies: ["CCurl", "CSystem", "HomeFeeds", "HomefeedVersion", "LogCore", "SystemCalls"]
        ),
        // Text measured with Pango (pangoft2 + fontconfig): the C interop stays in here.
        .target(name: "TextMeasure", dependencies: ["CPango"]),
        // The Varlink wire protocol alone: framing, server, client, org.varlink.service.
        .target(name: "Varlink", dependencies: ["CSystem", "JSONCore", "LogCore", "SystemCalls"]),
        .target(
            name: "HomeDaemon",
            dependencies: [
                "HomeLayout", "HomeFeeds", "HomeStore", "HomeFetch", "Varlink", "ThumbnailProtocol", "CSystem",
                "TextMeasure", "CommandTable", "HomefeedVersion", "JSONCore", "LogCore", "SystemCalls",
            ]
        ),

        // Executables.
        .executableTarget(name: "homefeedd", dependencies: ["HomeDaemon", "CommandTable", "SystemCalls"]),
        .executableTarget(
            name: "homefeedctl",
            dependencies: [
                "HomeLayout", "HomeFeeds", "Varlink", "TextMeasure", "CommandTable", "HomefeedVersion", "JSONCore",
                "SystemCalls", "CSystem",
            ]
        ),
        // Decodes and resizes images with libvips in a resource-limited process of its own.
        .executableTarget(
            name: "homefeed-thumbnail",
            dependencies: ["CVips", "CSystem", "ThumbnailProtocol", "CommandTable", "HomefeedVersion", "SystemCalls"]
        ),
        .executableTarget(
            name: "homefeed-bench",
            dependencies: [
                "HomeLayout", "HomeFeeds", "HomeStore", "HomeFetch", "HomeDaemon", "Varlink", "CLibXML2", "CSQLite",
                "ThumbnailProtocol", "homefeed-thumbnail", "TextMeasure", "CommandTable", "HomefeedVersion", "CSystem",
                "LogCore", "SystemCalls",
            ]
        ),
        // Test helper: one fetch in a process of its own, reporting its peak RSS and CPU time
        // (HomeFetchTests' resource-bound tests).
        .executableTarget(
            name: "homefeed-fetch-probe",
            dependencies: ["HomeFetch", "HomeFeeds", "CommandTable", "HomefeedVersion"]
        ),
        // Test helper: ingests a large document and waits to be killed (HomeStoreTests' crash test).
        .executableTarget(
            name: "homefeed-store-crashtest",
            dependencies: ["HomeStore", "CommandTable", "HomefeedVersion"]
        ),

        // What several test targets share: the loopback HTTP fixture server, temporary
        // directories, the manual clock, the log recorder and the peak-memory probe.
        .target(name: "TestSupport", dependencies: ["CSystem", "HomeFetch", "SystemCalls"], path: "Tests/TestSupport", exclude: ["Fixtures"]),

        // Tests mirror the targets.
        .testTarget(name: "SystemLibraryTests", dependencies: ["CSQLite", "CLibXML2"]),
        .testTarget(name: "SystemCallsTests", dependencies: ["SystemCalls"]),
        .testTarget(name: "CommandTableTests", dependencies: ["CommandTable", "TestSupport"]),
        .testTarget(name: "HomeLayoutTests", dependencies: ["HomeLayout", "JSONCore", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(
            name: "HomeFeedsTests",
            dependencies: ["HomeFeeds", "TestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "HomeStoreTests",
            dependencies: ["HomeStore", "SystemCalls", "TestSupport", "homefeed-store-crashtest"]
        ),
        .testTarget(
            name: "HomeFetchTests",
            dependencies: ["HomeFetch", "HomeFeeds", "HomefeedVersion", "TestSupport", "homefeed-fetch-probe"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "HomeDaemonTests",
            dependencies: [
                "HomeDaemon", "HomeFeeds", "HomeFetch", "HomeLayout", "HomeStore", "TestSupport", "TextMeasure",
                "ThumbnailProtocol", "CommandTable", "homefeed-thumbnail", "LogCore", "Varlink",
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "VarlinkTests", dependencies: ["Varlink", "LogCore", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "TextMeasureTests", dependencies: ["TextMeasure", "TestSupport"]),
        // Runs the built executables as a user would.
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "homefeedctl", "homefeedd", "homefeed-thumbnail", "homefeed-bench", "homefeed-fetch-probe",
                "homefeed-store-crashtest", "Varlink", "HomefeedVersion",
                // The command tables, to list every command whose --help has a golden.
                "CommandTable", "HomeDaemon", "TestSupport", "TextMeasure",
            ],
            // The --help goldens, read from the source tree (HelpGoldenTests).
            exclude: ["Goldens"]
        ),
    ]
)

// Every Swift target gets the same language settings (style.md §3.8).
for target in package.targets where target.type != .system {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("MemberImportVisibility"),
            .enableUpcomingFeature("InternalImportsByDefault"),
            .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
        ]
}
