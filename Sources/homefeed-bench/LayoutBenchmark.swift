import Foundation
import HomeLayout

/// `homefeed-bench layout`: solve time of the home screen and of large repeated-group sections.
///
/// Goals (issue 2): the home screen in under 20 µs; a repeated-group section under 100 ns per
/// element. The floor is a plain loop writing the same number of frames into an array: what
/// any solver must at least spend per item. Encoding (issue 17: ≤ 60 ns an element) beside its
/// floor: the same bytes copied item by item into a fresh array.
enum LayoutBenchmark {
    static func run(specPath: String) {
        guard let data = FileManager.default.contents(atPath: specPath) else {
            FileHandle.standardError.write(Data("homefeed-bench: cannot read \(specPath)\n".utf8))
            exit(1)
        }
        let home: LayoutSpec
        do {
            home = try LayoutSpec(json: data)
        } catch {
            FileHandle.standardError.write(Data("homefeed-bench: \(specPath): \(error)\n".utf8))
            exit(1)
        }

        var sink = 0.0
        var summary: [String] = []
        for width in [375.0, 390, 820] {
            let environment = LayoutEnvironment(width: width, height: 812, scale: 3)
            let iterations = 2_000
            let ns = Measure.median(runs: 15) {
                for _ in 0..<iterations {
                    if let result = try? LayoutSolver.solve(home, in: environment) { sink += result.contentSize.height }
                }
            }
            let us = ns / Double(iterations) / 1_000
            Measure.report("layout.home_\(Int(width)).solve_us", us, "us")
            if width == 375 {
                // Self-sizing: every estimated element measured (10 pt larger on each estimated
                // axis), beside the plain solve above. Goal: at most 1.5× the plain solve.
                let measurements = measureEverything(home, in: environment)
                let measuredNs = Measure.median(runs: 15) {
                    for _ in 0..<iterations {
                        if let result = try? LayoutSolver.solve(home, in: environment, measurements: measurements) {
                            sink += result.contentSize.height
                        }
                    }
                }
                let measuredUs = measuredNs / Double(iterations) / 1_000
                Measure.report("layout.home_375.solve_measured_us", measuredUs, "us")
                summary.append(
                    "home 375 measured (\(measurements.count) elements): \(String(format: "%.2f", measuredUs)) µs = "
                        + String(format: "%.2f× plain", measuredUs / us)
                )
                let result = (try? LayoutSolver.solve(home, in: environment))
                let encodeNs = Measure.median(runs: 15) {
                    for _ in 0..<200 { sink += Double(result?.jsonBytes(pretty: false).count ?? 0) }
                }
                Measure.report("layout.home_375.encode_us", encodeNs / 200 / 1_000, "us")
            }
            summary.append("home \(Int(width)): \(String(format: "%.2f", us)) µs")
        }

        for (label, count) in [("10k", 10_000), ("100k", 100_000)] {
            let spec = gridSpec(count: count)
            let environment = LayoutEnvironment(width: 375, height: 812, scale: 2)
            let ns = Measure.median(runs: 11) {
                if let result = try? LayoutSolver.solve(spec, in: environment) {
                    sink += result.sections[0].itemFrames[count - 1].y
                }
            }
            let floor = Measure.median(runs: 11) {
                var frames: [Rect] = []
                frames.reserveCapacity(count)
                for i in 0..<count {
                    frames.append(Rect(x: Double(i & 1) * 173.5, y: Double(i >> 1) * 132, width: 161.5, height: 120))
                }
                sink += frames[count - 1].y
            }
            Measure.report("layout.grid_\(label).ns_per_item", ns / Double(count), "ns")
            Measure.report("layout.grid_\(label).floor_ns_per_item", floor / Double(count), "ns")
            if let result = try? LayoutSolver.solve(spec, in: environment) {
                let encode = Measure.median(runs: 5) { sink += Double(result.jsonBytes(pretty: false).count) }
                let bytes = result.jsonBytes(pretty: false)
                let encodeFloor = Measure.median(runs: 5) { sink += Double(copyFloor(bytes, items: count)) }
                Measure.report("layout.grid_\(label).encode_ns_per_item", encode / Double(count), "ns")
                Measure.report("layout.grid_\(label).encode_floor_ns_per_item", encodeFloor / Double(count), "ns")
            }
            summary.append(
                "grid \(label): \(String(format: "%.1f", ns / Double(count))) ns/item (floor \(String(format: "%.1f", floor / Double(count))))"
            )
        }
        print("# " + summary.joined(separator: "; ") + " [checksum \(Int(sink) % 997)]")
        print(
            "# goals: home screen < 20 µs, measured ≤ 1.5× plain, repeated-group section < 100 ns per element"
        )
    }

    /// Measurements of every estimated item, boundary item and badge of `spec` in `environment`,
    /// each 10 pt larger than its estimate on its estimated axes.
    static func measureEverything(_ spec: LayoutSpec, in environment: LayoutEnvironment) -> LayoutMeasurements {
        var measurements = LayoutMeasurements()
        guard let plain = try? LayoutSolver.solve(spec, in: environment) else { return measurements }
        func grown(_ frame: Rect, _ axes: SizingAxes) -> MeasuredSize {
            MeasuredSize(
                width: axes.contains(.width) ? frame.width + 10 : nil,
                height: axes.contains(.height) ? frame.height + 10 : nil
            )
        }
        for section in plain.sections {
            for (index, frame) in section.itemFrames.enumerated() where section.itemSizing(index) != .fixed {
                measurements[.item(section: section.index, item: index)] = grown(
                    frame,
                    section.itemEstimatedAxes(index)
                )
            }
            for supplementary in section.supplementaries where supplementary.sizing != .fixed {
                let size = grown(supplementary.frame, supplementary.estimatedAxes)
                if let item = supplementary.item {
                    measurements[
                        .itemSupplementary(section: section.index, item: item, elementKind: supplementary.elementKind)
                    ] = size
                } else if supplementary.isBoundary {
                    measurements[.boundary(section: section.index, elementKind: supplementary.elementKind)] = size
                }
            }
        }
        return measurements
    }

    /// The encoding floor: a fresh array of the output's size filled by copying one item's
    /// bytes per item (`memcpy`), with no formatting at all: what writing the bytes costs.
    static func copyFloor(_ output: [UInt8], items: Int) -> Int {
        let itemBytes = max(output.count / items, 1)
        let copy = [UInt8](unsafeUninitializedCapacity: output.count) { buffer, initialized in
            output.withUnsafeBufferPointer { source in
                guard let from = source.baseAddress, let to = buffer.baseAddress else { return }
                var offset = 0
                while offset + itemBytes <= output.count {
                    (to + offset).update(from: from + offset, count: itemBytes)
                    offset += itemBytes
                }
                (to + offset).update(from: from + offset, count: output.count - offset)
            }
            initialized = output.count
        }
        return copy.count
    }

    /// A two-column grid like the app-service section: rows of two 0.5-wide items, spacing 12.
    static func gridSpec(count: Int) -> LayoutSpec {
        var row = LayoutGroup.horizontal(
            LayoutSize(width: .fractionalWidth(1), height: .absolute(120)),
            [.item(LayoutItem(size: LayoutSize(width: .fractionalWidth(0.5), height: .fractionalHeight(1))))]
        )
        row.interItemSpacing = .fixed(12)
        return LayoutSpec(sections: [
            LayoutSection(
                id: "grid",
                itemCount: count,
                group: row,
                contentInsets: EdgeInsets(top: 14, leading: 20, bottom: 0, trailing: 20),
                interGroupSpacing: 12
            )
        ])
    }
}
