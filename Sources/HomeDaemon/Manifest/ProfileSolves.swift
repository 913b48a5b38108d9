/// Work done for every profile of a version, each profile on a child task of its own: the
/// profiles' layouts are independent, and a version waits for the slowest, not for their sum
/// (issue 17). Results keep the profiles' order, so errors and text slots are reported in
/// configuration order whatever order the tasks end in.
enum ProfileSolves {
    /// `work` for each profile, concurrently, in `profiles`' order.
    static func map<Output: Sendable>(
        _ profiles: [Profile],
        _ work: @escaping @Sendable (Profile) -> Output
    ) async -> [Output] {
        await withTaskGroup(of: (Int, Output).self) { group in
            for (index, profile) in profiles.enumerated() {
                group.addTask { (index, work(profile)) }
            }
            var results = [Output?](repeating: nil, count: profiles.count)
            for await (index, result) in group { results[index] = result }
            // Every index was set: the group ends only once each of its tasks has.
            return results.compactMap { $0 }
        }
    }
}
