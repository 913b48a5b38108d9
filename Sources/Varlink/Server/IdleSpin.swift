/// Whether the event loop polls for a short while before it sleeps in `epoll_wait`: an adaptive
/// spin, as a mutex's (glibc's `PTHREAD_MUTEX_ADAPTIVE_NP`), that keeps spinning only while it
/// measurably brings a client's next call sooner.
///
/// *Why.* On an idle machine most of a small call's round trip is the wake-up of a thread
/// sleeping on an idle core, not the work: the loop answers in about a microsecond, sleeps, and
/// a client that calls again at once waits for the loop's core to wake. Polling for ``window``
/// after answering finds that next call without the wake-up (issue 17: the quiet call went from
/// 1.2–1.3× the blocking echo to about 0.8×, for 2 µs more CPU per call).
///
/// *Only while calls are dense.* The loop spins only after a wait that ended with events
/// within ``denseGap`` of its start, a client calling back to back. A device whose clients call
/// now and then, or whose loop wakes for a timer or works through a fan-out of pushes, does not
/// spin; an idle loop costs nothing.
///
/// *Only while it helps.* On a busy machine a spinning loop keeps its core from the client it
/// waits for, whose wake-up then queues behind another process: the calls came a third slower
/// with a busy loop on the other core. So the loop measures: the mean gap from answering to the
/// next call (each up to ``denseGap``), over ``stretch`` waits in the mode it prefers, then over
/// ``trial`` in the other mode, and prefers whichever brought calls sooner. A wrong choice costs
/// one stretch.
///
/// Loop thread only; a value the loop owns.
struct IdleSpin {
    /// How long the loop polls before it sleeps (ns): longer than a client's turn-around on
    /// this machine class (5–8 µs from a reply to the next call), short beside a call's CPU.
    static let window: UInt64 = 10_000
    /// A wait that ends with events sooner than this (ns) is a client calling back to back: the
    /// next wait may spin.
    static let denseGap: UInt64 = 50_000
    /// A wait that ends with events sooner than this (ns) keeps a run of calls going: the next
    /// wait is a sample of the mode the loop is in, its gap counted up to ``denseGap``. Longer
    /// than ``denseGap``, so that a trial of sleeping on a machine slow to wake (gaps of 60 µs
    /// where spinning had 6) still gathers its samples and ends.
    static let runGap: UInt64 = 1_000_000
    /// Samples in the preferred mode between trials of the other.
    static let stretch = 960
    /// Samples in the other mode per trial.
    static let trial = 64

    private var prefersSpinning = true
    private var inTrial = false
    /// The last wait was dense: the next one may spin.
    private var dense = false
    /// The last wait kept a run of calls going: the next one is a sample.
    private var inRun = false
    private var samples = 0
    private var gapSum: UInt64 = 0
    /// The mean gap of the last stretch in the preferred mode (ns).
    private var preferredMean: UInt64 = 0

    /// Whether the loop spins in the mode it is in now.
    private var spinsNow: Bool { inTrial ? !prefersSpinning : prefersSpinning }

    /// True when the next wait should poll for ``window`` before it sleeps.
    var isArmed: Bool { dense && spinsNow }

    /// Notes how a wait that could sleep ended: with `events` ready (0 when it timed out)
    /// after `waited` ns.
    mutating func noteWait(events: Int32, waited: UInt64) {
        if inRun {
            // Capped at the dense limit: a client preempted for a millisecond on a busy machine
            // would otherwise outweigh a whole trial (a mean, not a median), and spinning, which
            // loses there, won trials by such outliers (1.35–1.41× the echo with a 1 ms cap).
            gapSum &+= min(waited, Self.denseGap)
            samples += 1
            if inTrial, samples == Self.trial {
                if gapSum / UInt64(samples) < preferredMean { prefersSpinning.toggle() }
                inTrial = false
                samples = 0
                gapSum = 0
            } else if !inTrial, samples == Self.stretch {
                preferredMean = gapSum / UInt64(samples)
                inTrial = true
                samples = 0
                gapSum = 0
            }
        }
        dense = events > 0 && waited < Self.denseGap
        inRun = events > 0 && waited < Self.runGap
    }

    /// Notes a wait that only looked (a timeout of 0: pushes in the lane, a timer due). It says
    /// nothing of how soon a client calls, and the wait after it does not spin.
    mutating func notePoll() {
        dense = false
        inRun = false
    }
}
