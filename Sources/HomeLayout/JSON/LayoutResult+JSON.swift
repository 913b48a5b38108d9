import JSONCore

extension LayoutResult {
    /// The solve output of `layout-spec-format.md` ("Solve") as JSON text.
    ///
    /// Keys come in the documented order: `container`, `platform`, `contentSize`, `sections` (each with
    /// `index`, `id`, `frame`, `items`, `supplementaries`, `decorations`, `orthogonal`),
    /// `globalSupplementaries`, `diagnostics`. Items and supplementaries whose size is estimated
    /// or measured say so in `sizing` (self-sizing, `docs/layout.md`). Integral numbers print without a fraction
    /// (`375`), others in their shortest round-trip form (`98.5`); a non-finite number, which
    /// a valid result never holds, prints as `null`.
    ///
    /// - Parameter pretty: two-space indentation with one item, supplementary, decoration or
    ///   diagnostic per line; `false` gives compact output without whitespace.
    public func jsonString(pretty: Bool = true) -> String {
        String(decoding: jsonBytes(pretty: pretty), as: UTF8.self)
    }

    /// The same output as ``jsonString(pretty:)`` as UTF-8 bytes, without the copy into a
    /// `String`.
    public func jsonBytes(pretty: Bool = true) -> [UInt8] {
        JSONWriter.encode(pretty: pretty, capacity: estimatedByteCount(pretty: pretty)) { write(to: &$0) }
    }

    private func write(to writer: inout JSONWriter) {
        writer.beginObject()

        writer.key("container")
        writer.container(environment)
        writer.key("platform")
        writer.string(platform.rawValue)
        writer.key("contentSize")
        writer.size(contentSize)

        writer.key("sections")
        writer.beginArray()
        for section in sections { writer.section(section) }
        writer.endArray()

        writer.key("globalSupplementaries")
        writer.beginArray()
        for supplementary in globalSupplementaries { writer.supplementary(supplementary) }
        writer.endArray()

        writer.key("diagnostics")
        writer.beginArray()
        for diagnostic in diagnostics {
            writer.beginObject(inline: true)
            writer.key("severity")
            writer.string(diagnostic.severity.rawValue)
            writer.key("path")
            writer.string(diagnostic.path)
            writer.key("message")
            writer.string(diagnostic.message)
            writer.endObject()
        }
        writer.endArray()

        writer.endObject()
    }

    /// A generous guess, so a 100 000-item result is written without regrowing the buffer.
    private func estimatedByteCount(pretty: Bool) -> Int {
        var count = 512
        for section in sections {
            count += 512 + section.id.utf8.count
            count += section.itemFrames.count * (pretty ? 128 : 96)
            count += (section.supplementaries.count + section.decorations.count) * 160
            count += (section.orthogonal?.restOffsets.count ?? 0) * 12
        }
        count += globalSupplementaries.count * 160
        for diagnostic in diagnostics { count += 64 + diagnostic.path.utf8.count + diagnostic.message.utf8.count }
        return count
    }
}

extension JSONWriter {
    /// `{"width":…,"height":…,"scale":…}`; shared with the daemon's manifest encoder.
    package mutating func container(_ environment: LayoutEnvironment) {
        beginObject(inline: true)
        key("width")
        number(environment.width)
        key("height")
        number(environment.height)
        key("scale")
        number(environment.scale)
        endObject()
    }

    package mutating func size(_ size: Size) {
        beginObject(inline: true)
        key("width")
        number(size.width)
        key("height")
        number(size.height)
        endObject()
    }

    /// A frame object; shared with the daemon's manifest encoder.
    package mutating func frame(_ rect: Rect) {
        beginObject(inline: true)
        key("x")
        number(rect.x)
        key("y")
        number(rect.y)
        key("width")
        number(rect.width)
        key("height")
        number(rect.height)
        endObject()
    }

    fileprivate mutating func section(_ section: SectionLayout) {
        beginObject()
        key("index")
        int(section.index)
        key("id")
        string(section.id)
        key("frame")
        frame(section.frame)

        key("items")
        beginArray()
        if pretty { prettyItems(section) } else { compactItems(section) }
        endArray()

        key("supplementaries")
        beginArray()
        for supplementary in section.supplementaries { self.supplementary(supplementary) }
        endArray()

        key("decorations")
        beginArray()
        for decoration in section.decorations { self.decoration(decoration) }
        endArray()

        key("orthogonal")
        orthogonal(section.orthogonal)
        endObject()
    }

    /// The items of a pretty section, one inline object per line.
    private mutating func prettyItems(_ section: SectionLayout) {
        let zIndex = section.itemZIndex
        for (index, itemFrame) in section.itemFrames.enumerated() {
            beginObject(inline: true)
            key("index")
            int(index)
            key("frame")
            frame(itemFrame)
            key("zIndex")
            int(zIndex)
            sizing(section.itemSizing(index))
            endObject()
        }
    }

    /// The items of a compact section: the hot loop of a 100 000-item section, in a function
    /// of its own so that every token call in it is inlined.
    private mutating func compactItems(_ section: SectionLayout) {
        let zIndex = section.itemZIndex
        // Each field's last two texts: neighbouring items of a grid or a list share widths,
        // heights, a row's y, the x of one of two columns and always the zIndex.
        var xMemo = JSONNumberMemo()
        var yMemo = JSONNumberMemo()
        var widthMemo = JSONNumberMemo()
        var heightMemo = JSONNumberMemo()
        var zIndexMemo = JSONNumberMemo()
        var indexMemo = JSONNumberMemo()
        // A section with no estimated slot (the solver then leaves the list empty) has only
        // fixed items.
        let allFixed = section.slotEstimatedAxes.isEmpty
        for (index, itemFrame) in section.itemFrames.enumerated() {
            let sizing = allFixed ? .fixed : section.itemSizing(index)
            // Room: 80 bytes of literals, two integers (20 each) and four numbers.
            compactValue(reserving: 120 + 4 * JSONWriter.maxNumberBytes) { item in
                item.literal(#"{"index":"#)
                item.int(index, memo: &indexMemo)
                item.literal(#","frame":{"x":"#)
                item.number(itemFrame.x, memo: &xMemo)
                item.literal(#","y":"#)
                item.number(itemFrame.y, memo: &yMemo)
                item.literal(#","width":"#)
                item.number(itemFrame.width, memo: &widthMemo)
                item.literal(#","height":"#)
                item.number(itemFrame.height, memo: &heightMemo)
                item.literal(#"},"zIndex":"#)
                item.int(zIndex, memo: &zIndexMemo)
                switch sizing {
                case .fixed: break
                case .estimated: item.literal(#","sizing":"estimated""#)
                case .measured: item.literal(#","sizing":"measured""#)
                }
                item.literal("}")
            }
        }
    }

    fileprivate mutating func supplementary(_ supplementary: SupplementaryFrame) {
        beginObject(inline: true)
        key("elementKind")
        string(supplementary.elementKind)
        key("item")
        if let item = supplementary.item { int(item) } else { null() }
        if let group = supplementary.group {
            key("group")
            int(group)
        }
        key("frame")
        frame(supplementary.frame)
        key("zIndex")
        int(supplementary.zIndex)
        key("pinToVisibleBounds")
        bool(supplementary.pinToVisibleBounds)
        pinRange(supplementary.pinRange)
        sizing(supplementary.sizing)
        endObject()
    }

    /// `"sizing": "estimated"` or `"measured"`; nothing for a fixed size (§7.1).
    fileprivate mutating func sizing(_ sizing: Sizing) {
        guard sizing != .fixed else { return }
        key("sizing")
        string(sizing.rawValue)
    }

    /// `"pinRange": {"min":…,"max":…}` when the supplementary is pinned; nothing otherwise.
    package mutating func pinRange(_ range: PinRange?) {
        guard let range else { return }
        key("pinRange")
        beginObject(inline: true)
        key("min")
        number(range.min)
        key("max")
        number(range.max)
        endObject()
    }

    package mutating func decoration(_ decoration: DecorationFrame) {
        beginObject(inline: true)
        key("elementKind")
        string(decoration.elementKind)
        if let item = decoration.item {
            key("item")
            int(item)
        }
        key("frame")
        frame(decoration.frame)
        key("zIndex")
        int(decoration.zIndex)
        if let cornerRadius = decoration.cornerRadius {
            key("cornerRadius")
            number(cornerRadius)
        }
        endObject()
    }

    /// The orthogonal-scrolling metadata, or `null`.
    package mutating func orthogonal(_ orthogonal: OrthogonalScrolling?) {
        guard let orthogonal else {
            null()
            return
        }
        beginObject()
        key("behavior")
        string(orthogonal.behavior.rawValue)
        key("axis")
        string(orthogonal.axis.rawValue)
        key("contentWidth")
        number(orthogonal.contentWidth)
        key("stride")
        number(orthogonal.stride)
        key("centeringInset")
        number(orthogonal.centeringInset)
        key("restOffsets")
        beginArray(inline: true)
        for offset in orthogonal.restOffsets { number(offset) }
        endArray()
        key("minOffset")
        number(orthogonal.minOffset)
        key("maxOffset")
        number(orthogonal.maxOffset)
        endObject()
    }
}
