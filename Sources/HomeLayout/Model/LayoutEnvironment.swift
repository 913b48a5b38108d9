/// The container a layout is solved for: the collection view's bounds, display scale, the
/// guides that `contentInsetsReference` picks from, and the layout direction (§1).
public struct LayoutEnvironment: Sendable, Hashable {
    /// Collection-view bounds width `W` in points.
    public var width: Double
    /// Collection-view bounds height `H`; used by `fractionalHeight` and paging.
    public var height: Double
    /// Display scale (1, 2, 3 …). `0` disables pixel flooring and final rounding (§2.3, §10).
    public var scale: Double
    /// Safe-area insets (`.automatic` and `.safeArea`). Values below 1 are fractions (§3.3).
    public var safeAreaInsets: EdgeInsets
    /// Layout-margin insets (`.layoutMargins`).
    public var layoutMargins: EdgeInsets
    /// Readable-content-guide insets (`.readableContent`).
    public var readableContentInsets: EdgeInsets
    /// Right-to-left mirrors every frame horizontally (§4.10).
    public var layoutDirection: LayoutDirection
    /// The client's iOS release; `nil` uses the spec's `configuration.platform`. A profile or
    /// a command line names it when one container serves older clients.
    public var platform: LayoutPlatform?

    public init(
        width: Double,
        height: Double,
        scale: Double,
        safeAreaInsets: EdgeInsets = .zero,
        layoutMargins: EdgeInsets = .zero,
        readableContentInsets: EdgeInsets = .zero,
        layoutDirection: LayoutDirection = .leftToRight,
        platform: LayoutPlatform? = nil
    ) {
        self.width = width
        self.height = height
        self.scale = scale
        self.safeAreaInsets = safeAreaInsets
        self.layoutMargins = layoutMargins
        self.readableContentInsets = readableContentInsets
        self.layoutDirection = layoutDirection
        self.platform = platform
    }

    /// The guide insets a reference selects, with sub-1 values taken as fractions of the
    /// container (§3.3). Width fractions apply to leading/trailing, height to top/bottom.
    func insets(for reference: ContentInsetsReference) -> EdgeInsets {
        let raw: EdgeInsets
        switch reference {
        case .automatic, .safeArea: raw = safeAreaInsets
        case .none: return .zero
        case .layoutMargins: raw = layoutMargins
        case .readableContent: raw = readableContentInsets
        }
        func resolve(_ v: Double, _ length: Double) -> Double { v > 0 && v < 1 ? v * length : v }
        return EdgeInsets(
            top: resolve(raw.top, height),
            leading: resolve(raw.leading, width),
            bottom: resolve(raw.bottom, height),
            trailing: resolve(raw.trailing, width)
        )
    }
}
