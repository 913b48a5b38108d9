import CSystem
import Glibc

/// The helper's own bounds, set first thing: address space and CPU time, hard and soft, so
/// neither a hostile image nor a libvips bug can take more than its share of the machine, and
/// no descriptor of the daemon but the pipes.
///
/// `RLIMIT_AS` bounds every mapping (decoded pixels, thread stacks, malloc arenas): an
/// allocation beyond it fails, and libvips reports the failure as an error for that image.
/// `RLIMIT_CPU` has a hard limit for the whole process and a soft limit moved before each
/// image to "used so far + the per-image budget": an image that spins gets `SIGXCPU` and the
/// daemon counts the crash against that image alone.
struct ResourceLimits {
    /// Bytes of address space (`--max-memory`).
    var maxMemory: Int
    /// CPU seconds for the whole helper (`--max-cpu`).
    var maxCPUSeconds: Int
    /// CPU seconds for one image (`--cpu-per-image`).
    var cpuSecondsPerImage: Int

    /// Closes inherited descriptors above 2 and sets both limits.
    ///
    /// - Returns: false when a limit could not be set (a seccomp filter that refuses
    ///   `prlimit64`); the helper runs on and says so in its hello line.
    func apply() -> Bool {
        csystem_close_from(3)
        let memory = rlim_t(max(64 << 20, maxMemory))
        var address = rlimit(rlim_cur: memory, rlim_max: memory)
        let cpu = rlim_t(max(1, maxCPUSeconds))
        var processor = rlimit(rlim_cur: min(cpu, rlim_t(max(1, cpuSecondsPerImage))), rlim_max: cpu)
        let asApplied = setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &address) == 0
        let cpuApplied = setrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &processor) == 0
        return asApplied && cpuApplied
    }

    /// Moves the soft CPU limit to this image's budget from the CPU used so far.
    func startImage() {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let used = Int(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + 1
        let hard = rlim_t(max(1, maxCPUSeconds))
        var processor = rlimit(rlim_cur: min(hard, rlim_t(used + max(1, cpuSecondsPerImage))), rlim_max: hard)
        _ = setrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &processor)
    }
}
