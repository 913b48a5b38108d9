/// Which iOS release's geometry to reproduce, for clients that run older systems.
///
/// The engine defaults to the geometry iOS 17 renders. iOS 14–16 differ in a few measured
/// ways; `docs/layout.md` ("Platforms") lists them and the renders they come from.
public enum LayoutPlatform: String, Sendable, Hashable, CaseIterable {
    /// iOS 17 and later: fractional sizes floored to the pixel grid (§2.3), so origins add up
    /// whole pixels; every section, even an empty one, is followed by `interSectionSpacing`.
    case ios17
    /// iOS 14–16: fractional sizes are not floored, so each origin is rounded on its own at the
    /// end; an empty section adds no spacing; an empty section that still lays something out
    /// (boundary items, an orthogonal background) has a content length of −interGroupSpacing,
    /// or one group for an orthogonal section with a background.
    case ios14

    /// Whether fractional dimensions are floored to the pixel grid before they are used (§2.3).
    var floorsFractionalSizes: Bool { self == .ios17 }
}
