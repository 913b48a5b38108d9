public import HomeLayout

/// A named container the daemon lays every version out for (`[profile NAME]` blocks).
public struct Profile: Sendable, Equatable {
    public var name: String
    public var environment: LayoutEnvironment

    public init(name: String, environment: LayoutEnvironment) {
        self.name = name
        self.environment = environment
    }

    /// Used when the configuration declares no profile: two phones, a tablet and a kiosk.
    public static let defaults: [Profile] = [
        Profile(name: "phone", environment: LayoutEnvironment(width: 375, height: 812, scale: 3)),
        Profile(name: "phone-large", environment: LayoutEnvironment(width: 390, height: 844, scale: 3)),
        Profile(name: "tablet", environment: LayoutEnvironment(width: 820, height: 1180, scale: 2)),
        Profile(name: "kiosk", environment: LayoutEnvironment(width: 1280, height: 720, scale: 1)),
    ]
}
