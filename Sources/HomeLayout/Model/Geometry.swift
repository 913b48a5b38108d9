/// A point in collection-view content coordinates (points, y grows downwards).
public struct Point: Sendable, Hashable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = Point(x: 0, y: 0)
}

/// A width and a height in points.
public struct Size: Sendable, Hashable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public static let zero = Size(width: 0, height: 0)
}

/// An axis-aligned rectangle. Frames in a ``LayoutResult`` are in content coordinates.
public struct Rect: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public var maxX: Double { x + width }
    public var maxY: Double { y + height }

    /// This rectangle shrunk by `insets` (leading is the left edge: mirroring happens last).
    public func inset(by insets: EdgeInsets) -> Rect {
        Rect(
            x: x + insets.leading,
            y: y + insets.top,
            width: width - insets.leading - insets.trailing,
            height: height - insets.top - insets.bottom
        )
    }

    /// This rectangle moved by (dx, dy).
    public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width, height: height)
    }
}

/// Insets on four edges, named as UIKit names them (`NSDirectionalEdgeInsets`).
public struct EdgeInsets: Sendable, Hashable {
    public var top: Double
    public var leading: Double
    public var bottom: Double
    public var trailing: Double

    public init(top: Double = 0, leading: Double = 0, bottom: Double = 0, trailing: Double = 0) {
        self.top = top
        self.leading = leading
        self.bottom = bottom
        self.trailing = trailing
    }

    public static let zero = EdgeInsets()

    var isZero: Bool { top == 0 && leading == 0 && bottom == 0 && trailing == 0 }
}

/// The layout axis of a group, or the scroll direction of a layout.
public enum Axis: String, Sendable, Hashable, CaseIterable {
    case horizontal
    case vertical
}

/// Which way leading and trailing point.
public enum LayoutDirection: String, Sendable, Hashable, CaseIterable {
    case leftToRight
    case rightToLeft
}
