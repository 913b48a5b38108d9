/// Another process spinning on one core (a `sh` loop), for figures measured
/// "loaded": on this 2-core machine it leaves the benchmark one core, as a busy neighbour would.
final class BusyLoop {
    // Spins, and every 10 000 turns (about 20 ms) checks that the bench is still there: a
    // bench that exits on a failure does not leave it spinning. Its standard streams are
    // /dev/null, so it holds no pipe of the bench's open either.
    private let process = BenchChild(
        "/bin/sh",
        ["-c", "i=0; while :; do i=$((i + 1)); if [ $i -ge 10000 ]; then kill -0 $PPID || exit 0; i=0; fi; done"],
        stdout: .null,
        stderr: .null
    )

    func stop() {
        process.terminate()
    }
}
