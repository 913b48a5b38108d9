public import Foundation

/// The sample layout with a section that validates but cannot lay out the sample's content.
public enum OverBudgetLayout {
    /// Replaces the sample's `appService` section (sections[3]) in `configDirectory`'s
    /// `layout.json` with one whose group costs 1 999 998 of a section's 2 000 000 units of
    /// solver work (`LayoutLimits`): 917 items in a group, 109 of those in another, wrapped in 19
    /// more. With its header and the one item it declares, the layout solves at every profile,
    /// so the configuration validates; with the six links the sample's services list puts in the
    /// section, it cannot be laid out.
    public static func write(in configDirectory: URL) throws {
        let url = configDirectory.appendingPathComponent("layout.json")
        guard var spec = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any],
            var sections = spec["sections"] as? [[String: Any]], sections.count > 3,
            sections[3]["id"] as? String == "appService"
        else { throw FixtureError("\(url.path) is not the sample layout") }
        func group(_ count: Int, of subitem: [String: Any]) -> [String: Any] {
            [
                "axis": "horizontal", "count": count, "subitems": [subitem],
                "size": ["width": ["absolute": 100], "height": ["absolute": 10]],
            ]
        }
        var root = group(917, of: ["item": ["size": ["width": ["absolute": 0.001], "height": ["absolute": 1]]]])
        root = group(109, of: ["group": root])
        for _ in 0..<19 { root = group(1, of: ["group": root]) }
        sections[3]["group"] = root
        sections[3]["itemCount"] = 1
        sections[3].removeValue(forKey: "variants")
        spec["sections"] = sections
        try JSONSerialization.data(withJSONObject: spec).write(to: url)
    }
}
