extension Task where Failure == Never {
    /// The task's value, or nil when it has none by `deadline` or the waiting task is
    /// cancelled. The task itself runs on either way: a late value is there for the next wait.
    func value(before deadline: ContinuousClock.Instant) async -> Success? {
        let (answers, answer) = AsyncStream.makeStream(of: Success?.self)
        let waiting = Task<Void, Never> { answer.yield(await value) }
        let timer = Task<Void, Never> {
            try? await Task<Never, Never>.sleep(until: deadline, clock: .continuous)
            answer.yield(nil)
        }
        defer {
            answer.finish()
            timer.cancel()
            waiting.cancel()
        }
        var iterator = answers.makeAsyncIterator()
        return await iterator.next() ?? nil
    }
}
