import HomeFeeds
import Testing

@Suite struct HomeFeedsPlaceholderTests {
    @Test func moduleIsImportable() { _ = HomeFeeds.self }
}
