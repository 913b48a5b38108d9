/// The image candidates of a JSON Feed item (`FeedImage`'s order): `image`, `banner_image`,
/// then the first `<img>` of `content_html`.
extension JSONFeedReader {
    static func images(of item: JSONFeedItem, base: String) -> [FeedImage] {
        var candidates = ImageCandidates()
        if let image = item.image.flatMap({ URIReference.resolve($0, against: base) }) {
            candidates.add(FeedImage(url: image, origin: .jsonImage))
        }
        if let banner = item.bannerImage.flatMap({ URIReference.resolve($0, against: base) }) {
            candidates.add(FeedImage(url: banner, origin: .jsonBannerImage))
        }
        if let html = item.contentHTML,
            let found = Array(html.utf8).withUnsafeBufferPointer({ HTMLImageScanner.firstImage(in: $0) }),
            let absolute = URIReference.resolve(found.source, against: base)
        {
            candidates.add(FeedImage(url: absolute, origin: .contentImage, width: found.width, height: found.height))
        }
        return candidates.ordered
    }
}
