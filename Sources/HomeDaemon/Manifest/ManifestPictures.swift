import HomeLayout
import JSONCore

/// The `content.image` of a manifest's items (`docs/manifest.md`): per item, the rendition of
/// its slot's pixel box once it is ready (with the average colour), the average colour alone
/// before, nothing before the original is decoded; and the list of boxes the version needs.
///
/// Not Sendable: made and used by one ``ManifestBuilder/build`` call.
final class ManifestPictures {
    enum Picture {
        case ready(ImageIndex.Ready, averageColor: String?)
        case averageColor(String)

        /// A hash of what the picture shows, as written in the manifest (`changes.updated`).
        var fingerprint: UInt64 {
            var writer = JSONWriter(pretty: false, capacity: 160)
            writer.picture(self)
            return StableID.hash(writer.bytes)
        }
    }

    let index: ImageIndex
    let scale: Double
    /// Ad-hoc containers take the nearest rendition; profiles only their exact boxes.
    let nearest: Bool
    private(set) var requirements: [ImageRequirement] = []
    private var required: Set<ImageRequirement> = []

    init(index: ImageIndex, scale: Double, nearest: Bool) {
        self.index = index
        self.scale = scale
        self.nearest = nearest
    }

    func picture(for item: ItemContent?, slot: ImageSlot?, frame: Rect) -> Picture? {
        guard let item, let subject = item.image else { return nil }
        let slot = slot ?? ImageSlot()
        guard slot.isEnabled, let box = slot.pixelBox(frameWidth: frame.width, frameHeight: frame.height, scale: scale)
        else { return nil }
        let key = ImageIndex.RenditionKey(width: box.width, height: box.height, mode: slot.mode(for: item.kind))
        let requirement = ImageRequirement(subject: subject, key: key)
        if !nearest, required.insert(requirement).inserted { requirements.append(requirement) }
        guard let entry = index.entries[subject.key] else { return nil }
        if let ready = entry.rendition(key, nearest: nearest) {
            return .ready(ready, averageColor: entry.averageColor)
        }
        return entry.averageColor.map(Picture.averageColor)
    }

    /// Room for `count` items' requirements, so a manifest's set is not rehashed as it grows.
    func reserveCapacity(_ count: Int) {
        guard !nearest else { return }
        required.reserveCapacity(count)
        requirements.reserveCapacity(count)
    }
}

extension JSONWriter {
    /// `{"url", "pixelWidth", "pixelHeight", "averageColor"}` or `{"averageColor"}`.
    mutating func picture(_ picture: ManifestPictures.Picture) {
        beginObject()
        switch picture {
        case .ready(let ready, let averageColor):
            key("url")
            string(ready.url)
            key("pixelWidth")
            int(ready.pixelWidth)
            key("pixelHeight")
            int(ready.pixelHeight)
            if let averageColor {
                key("averageColor")
                string(averageColor)
            }
        case .averageColor(let color):
            key("averageColor")
            string(color)
        }
        endObject()
    }
}
