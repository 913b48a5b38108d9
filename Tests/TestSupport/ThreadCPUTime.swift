import Glibc

/// CPU seconds the calling thread has used (`CLOCK_THREAD_CPUTIME_ID`). A test that bounds
/// work done on its own thread reads this: other tests running in parallel and a busy machine
/// count in wall time and in the process's CPU time, not here.
public func threadCPUSeconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}
