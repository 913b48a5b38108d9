import HomeLayout

/// A 64-bit fingerprint of the container a size is measured in: width, height, scale, the
/// safe-area, layout-margin and readable-content insets, the direction and the platform (the
/// layout's when the container names none), everything of a container that moves frames. A
/// reported size is kept with it, so a profile whose container changes (`[profile phone]` made
/// 390 points wide) is laid out with its estimates again, not with heights measured at 375.
///
/// FNV-1a over the values' bit patterns and the names' UTF-8. Stored in the database: the
/// function must never change for a container it already covers.
enum ContainerFingerprint {
    /// The fingerprint of `environment` as `spec` is laid out in it: with its platform, else
    /// the spec's `configuration.platform`.
    static func of(_ environment: LayoutEnvironment, laying spec: LayoutSpec) -> UInt64 {
        of(environment, platform: environment.platform ?? spec.configuration.platform)
    }

    static func of(_ environment: LayoutEnvironment, platform: LayoutPlatform) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        func mix(_ value: Double) {
            var bits = value.bitPattern
            for _ in 0..<8 {
                mix(UInt8(truncatingIfNeeded: bits))
                bits >>= 8
            }
        }
        func mix(_ insets: EdgeInsets) {
            for value in [insets.top, insets.leading, insets.bottom, insets.trailing] { mix(value) }
        }
        func mix(_ name: String) {
            for byte in name.utf8 { mix(byte) }
            mix(UInt8(0xFF))
        }
        mix(environment.width)
        mix(environment.height)
        mix(environment.scale)
        mix(environment.safeAreaInsets)
        mix(environment.layoutMargins)
        mix(environment.readableContentInsets)
        mix(environment.layoutDirection.rawValue)
        mix(platform.rawValue)
        return hash
    }
}
