import Varlink

extension ServeBenchmark {
    /// The quiet epoll echo floor again, its server spending `work` µs (the call's own cost, as
    /// measured loaded) between each read and its write, then a quarter of that
    /// (``SimulatedWork``); reported as `serve.call_work_us` and
    /// `serve.call_epoll_floor_p50_us_quiet_work` / `_quarter_work`, with the worked echo
    /// thread's CPU a round trip (`serve.small.epoll_floor_server_cpu_us_work`), which shows
    /// whether the spin took what it was calibrated to beside the plain one's.
    ///
    /// Why: on a fast quiet host, latency is not the echo's plus the work. In stop 41 an echo
    /// spending 0.4 µs a call took 15 µs, like the echo; spending 1.2 µs it took 21 µs. A server that does any real work per call pays that step, and these figures
    /// measure it in the same run as the call.
    static func workedFloors(
        _ call: VarlinkCall,
        replySize: Int,
        work: Double,
        directory: String,
        calls: Int
    ) -> (work: Double, whole: Double, quarter: Double) {
        let floors = [1.0, 0.25].map { share in
            measureFloor(
                call: call,
                replySize: replySize,
                path: directory + "/floor-w.sock",
                calls: calls,
                epoll: true,
                work: SimulatedWork(microseconds: work * share)
            )
        }
        Measure.report("serve.call_work_us", work, "us")
        Measure.report("serve.call_epoll_floor_p50_us_quiet_work", floors[0].p50, "us")
        Measure.report("serve.small.epoll_floor_server_cpu_us_work", floors[0].serverCPU, "us")
        Measure.report("serve.call_epoll_floor_p50_us_quiet_quarter_work", floors[1].p50, "us")
        return (work, floors[0].p50, floors[1].p50)
    }
}
