/// One fuzz input run through the layout engine as `make fuzz FUZZ_TARGET=layout` runs it,
/// shared by the libFuzzer entry (`Fuzz/LayoutFuzzEntry.swift`) and the regression replay
/// (`HomeLayoutTests`' `FuzzRegressionTests`), so a crasher replays exactly as it was found.
///
/// Specs come from an admin's `layout.json` and measurements from any local client
/// (`ReportSizes`), containers from a client's `GetManifest`: none of them may trap. The first
/// byte picks the container (bits 0–2: ordinary, extreme and invalid ones), the item counts
/// (bits 3–4), safe-area insets (bit 5) and right-to-left (bit 6); the rest is the spec's JSON,
/// then, after a NUL byte if there is one, the measurements' JSON. The spec is decoded, solved
/// and its result encoded.
package enum LayoutFuzzInput {
    /// Width, height and scale, with values a client may send that no screen has.
    static let containers: [(width: Double, height: Double, scale: Double)] = [
        (375, 812, 3), (744, 1133, 2), (1, 1, 1), (0, 812, 3),
        (320.5, 0.25, 0), (1e9, 1e9, 3), (-375, 812, 2), (.nan, .infinity, 3),
    ]
    /// Items per section: the spec's own counts, none, one, or many.
    static let itemCounts: [Int?] = [nil, 0, 1, 1_000]

    /// Runs one input.
    ///
    /// - Returns: the result's JSON or the error's description; nil for an empty input.
    @discardableResult
    package static func run(_ data: UnsafeRawBufferPointer) -> String? {
        guard let selector = data.first else { return nil }
        let body = data.dropFirst()
        let separator = body.firstIndex(of: 0)
        let specBytes = body[..<(separator ?? body.endIndex)]
        let measurementBytes = separator.map { body[($0 + 1)...] }
        let container = containers[Int(selector) % containers.count]
        // Insets below 1 are fractions of the container (§3.3).
        let insets = EdgeInsets(top: 0.5, leading: 20, bottom: 34, trailing: 0.25)
        let environment = LayoutEnvironment(
            width: container.width,
            height: container.height,
            scale: container.scale,
            safeAreaInsets: selector & 0x20 == 0 ? .zero : insets,
            layoutDirection: selector & 0x40 == 0 ? .leftToRight : .rightToLeft
        )
        do {
            let spec = try LayoutSpec(json: specBytes)
            let measurements = try measurementBytes.map { try LayoutMeasurements(json: $0, spec: spec) }
            let count = itemCounts[Int(selector >> 3) % itemCounts.count]
            let result = try LayoutSolver.solve(
                spec,
                in: environment,
                itemCounts: count.map { Array(repeating: $0, count: spec.sections.count) },
                measurements: measurements ?? LayoutMeasurements()
            )
            return result.jsonString(pretty: false)
        } catch let error as LayoutSpecError {
            return "spec: \(error)"
        } catch let error as LayoutSolveError {
            return "solve: \(error)"
        } catch {
            return "other: \(error)"
        }
    }
}
