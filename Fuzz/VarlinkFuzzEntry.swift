// libFuzzer entry for Varlink's message decoding, compiled together with Sources/Varlink into
// one module by `make fuzz FUZZ_TARGET=varlink` (never part of `swift build`/`swift test`). The
// input runs exactly as VarlinkTests' FuzzRegressionTests replays it: `VarlinkFuzzInput.run` in
// Sources/Varlink/Fuzzing. Decodings that disagree are a bug: reported as a crash, with both.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    if let disagreement = VarlinkFuzzInput.run(UnsafeRawBufferPointer(start: data, count: size))?.disagreement {
        fatalError(disagreement)
    }
    return 0
}
