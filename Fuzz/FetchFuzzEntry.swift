// libFuzzer entry for what a fetch does with a server's response, compiled together with
// Sources/HomeFetch into one module by `make fuzz FUZZ_TARGET=fetch` (never part of `swift
// build`/`swift test`). The input runs exactly as HomeFetchTests' FuzzRegressionTests replays it:
// `FetchFuzzInput.run` in Sources/HomeFetch/Fuzzing. Runs that disagree are a bug: reported as a
// crash, with both.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    if let disagreement = FetchFuzzInput.run(UnsafeRawBufferPointer(start: data, count: size))?.disagreement {
        fatalError(disagreement)
    }
    return 0
}
