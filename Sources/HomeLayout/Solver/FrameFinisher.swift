/// The last step of a solve: transpose back from vertical solving (horizontal scroll
/// direction), mirror for right-to-left (§4.10), round to the pixel grid (§10), and reject
/// anything non-finite (§9 item 5).
struct FrameFinisher {
    let grid: PixelGrid
    let transpose: Bool
    /// The content width to mirror across, for right-to-left layouts.
    let mirrorWidth: Double?

    @inline(__always)
    func finish(_ rect: Rect) throws(LayoutSolveError) -> Rect {
        var r = transpose ? rect.transposed : rect
        if let mirrorWidth { r.x = mirrorWidth - r.x - r.width }
        r = grid.round(r)
        guard r.x.isFinite, r.y.isFinite, r.width.isFinite, r.height.isFinite else {
            throw LayoutSolveError(.invalidFrame(r))
        }
        return r
    }

    func finish(_ section: inout SectionLayout, isHorizontal: Bool) throws(LayoutSolveError) {
        do throws(LayoutSolveError) {
            section.frame = try finish(section.frame)
            if !transpose, mirrorWidth == nil {
                // The common case, kept branch-free per item.
                for i in section.itemFrames.indices {
                    let r = grid.round(section.itemFrames[i])
                    guard r.x.isFinite, r.y.isFinite, r.width.isFinite, r.height.isFinite else {
                        throw LayoutSolveError(.invalidFrame(r))
                    }
                    section.itemFrames[i] = r
                }
            } else {
                for i in section.itemFrames.indices {
                    section.itemFrames[i] = try finish(section.itemFrames[i])
                }
            }
            try finish(&section.supplementaries, section: section)
            for i in section.decorations.indices {
                section.decorations[i].frame = try finish(section.decorations[i].frame)
            }
            if isHorizontal {
                section.orthogonal?.axis = .vertical
                section.slotEstimatedAxes = section.slotEstimatedAxes.map(\.transposed)
                if !section.measuredItems.isEmpty {
                    section.measuredItems = section.measuredItems.mapValues(\.transposed)
                }
            }
        } catch {
            var located = error
            located.sectionIndex = section.index
            located.sectionID = section.id
            throw located
        }
    }

    func finish(_ frames: inout [SupplementaryFrame], section: SectionLayout?) throws(LayoutSolveError) {
        for i in frames.indices {
            let unrounded = transpose ? frames[i].frame.transposed : frames[i].frame
            frames[i].frame = try finish(frames[i].frame)
            if transpose {
                frames[i].estimatedAxes = frames[i].estimatedAxes.transposed
                frames[i].measuredAxes = frames[i].measuredAxes.transposed
            }
            if var range = frames[i].pinRange {
                // The clamp runs along the scroll axis; it mirrors only when that axis is x.
                if transpose, let mirrorWidth {
                    range = PinRange(
                        min: mirrorWidth - range.max - unrounded.width,
                        max: mirrorWidth - range.min - unrounded.width
                    )
                }
                frames[i].pinRange = PinRange(min: grid.round(range.min), max: grid.round(range.max))
            }
        }
    }
}
