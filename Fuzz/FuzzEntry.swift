// libFuzzer entry for HomeFeeds, linked with Sources/HomeFeeds built as an instrumented module by
// `make fuzz` (never part of `swift build`/`swift test`). The input runs exactly as
// FuzzRegressionTests replays it: `FuzzInput.run` in Sources/HomeFeeds/Fuzzing.

import HomeFeeds

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    FuzzInput.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
