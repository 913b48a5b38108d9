// libFuzzer entry for HomeLayout, compiled together with Sources/HomeLayout into one module by
// `make fuzz FUZZ_TARGET=layout` (never part of `swift build`/`swift test`). The input runs
// exactly as HomeLayoutTests' FuzzRegressionTests replays it: `LayoutFuzzInput.run` in
// Sources/HomeLayout/Fuzzing.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    LayoutFuzzInput.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
