public import ThumbnailProtocol

/// How a section's items show their images (`[section ID]` keys `image` and `image-size`,
/// `docs/configuration.md`).
///
/// Sendable: an immutable value.
public struct ImageSlot: Sendable, Equatable {
    /// False for `image = none`: the section's items carry no image.
    public var isEnabled: Bool
    /// `fill` or `fit`; nil picks by kind: notices fill their slot (a thumbnail), links fit
    /// theirs (an icon is never cut).
    public var mode: RenditionMode?
    /// The image's box in points; nil uses the item's frame.
    public var width: Double?
    public var height: Double?

    public init(isEnabled: Bool = true, mode: RenditionMode? = nil, width: Double? = nil, height: Double? = nil) {
        self.isEnabled = isEnabled
        self.mode = mode
        self.width = width
        self.height = height
    }

    /// The mode for an item of `kind`.
    func mode(for kind: String) -> RenditionMode {
        mode ?? (kind == "notice" ? .fill : .fit)
    }

    /// The pixel box for an item `frame` wide and high at `scale` (0 counts as 1), each side
    /// rounded and kept within 1…8192 (`homefeed-thumbnail`'s bounds); nil for an empty frame.
    func pixelBox(frameWidth: Double, frameHeight: Double, scale: Double) -> (width: Int, height: Int)? {
        let factor = scale > 0 ? scale : 1
        let w = (width ?? frameWidth) * factor
        let h = (height ?? frameHeight) * factor
        guard w.isFinite, h.isFinite, w >= 0.5, h >= 0.5 else { return nil }
        return (min(8192, max(1, Int(w.rounded()))), min(8192, max(1, Int(h.rounded()))))
    }
}
