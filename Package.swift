// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "homefeed",
    products: [
        .library(name: "HomeLayout", targets: ["HomeLayout"]),
        .library(name: "HomeFeeds", targets: ["HomeFeeds"]),
        .executable(name: "homefeedctl", targets: ["homefeedctl"]),
        .executable(name: "homefeed-bench", targets: ["homefeed-bench"]),
    ],
    targets: [
        // C libraries from Debian's -dev packages (swift-on-linux.md §1).
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),

        // Libraries, bottom layer first. Arrows point one way (architecture.md).
        // Pure Swift, no Foundation: only libm for floor/round.
        .target(name: "HomeLayout", linkerSettings: [.linkedLibrary("m")]),
        // Release builds skip dynamic exclusivity checks in the parser's per-event hot path
        // (homefeed-bench parse); debug builds and tests keep them.
        .target(
            name: "HomeFeeds",
            dependencies: ["CLibXML2"],
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]
        ),

        // Executables.
        .executableTarget(name: "homefeedctl", dependencies: ["HomeLayout", "HomeFeeds"]),
        .executableTarget(name: "homefeed-bench", dependencies: ["HomeLayout", "HomeFeeds", "CLibXML2"]),

        // Tests mirror the targets.
        .testTarget(name: "SystemLibraryTests", dependencies: ["CSQLite", "CLibXML2"]),
        .testTarget(name: "HomeLayoutTests", dependencies: ["HomeLayout"]),
        .testTarget(name: "HomeFeedsTests", dependencies: ["HomeFeeds"], resources: [.copy("Fixtures")]),
    ]
)

// Every Swift target gets the same language settings (style.md §3.8).
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
        .enableUpcomingFeature("InternalImportsByDefault"),
        .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
    ]
}
