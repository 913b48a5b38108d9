import HomeLayout

/// A 64-bit fingerprint of the container a size is measured in: width, height, scale, the
/// safe-area, layout-margin and readable-content insets, the direction and the platform (the
/// layout's when the container names none), everything of a container that moves frames. A
/// reported size is kept with it, so a profile whose container changes (`[profile phone]` made
/// 390 points wide) is laid out with its estimates again, not with heights measured at 375.
///
/// FNV-1a (``StableID/hash(_:)``) over the values' bit patterns, low byte first, and the names'
/// UTF-8, each closed by 0xFF. Stored in the database: the function must never change for a
/// container it already covers.
enum ContainerFingerprint {
    /// The fingerprint of `environment` as `spec` is laid out in it: with its platform, else
    /// the spec's `configuration.platform`.
    static func of(_ environment: LayoutEnvironment, laying spec: LayoutSpec) -> UInt64 {
        of(environment, platform: environment.platform ?? spec.configuration.platform)
    }

    static func of(_ environment: LayoutEnvironment, platform: LayoutPlatform) -> UInt64 {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128)
        func append(_ value: Double) {
            withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        }
        func append(_ insets: EdgeInsets) {
            for value in [insets.top, insets.leading, insets.bottom, insets.trailing] { append(value) }
        }
        func append(_ name: String) {
            bytes.append(contentsOf: name.utf8)
            bytes.append(0xFF)
        }
        append(environment.width)
        append(environment.height)
        append(environment.scale)
        append(environment.safeAreaInsets)
        append(environment.layoutMargins)
        append(environment.readableContentInsets)
        append(environment.layoutDirection.rawValue)
        append(platform.rawValue)
        return StableID.hash(bytes)
    }
}
