/// How a child process ended, decoded from the status `waitpid` or `wait4` stored for it.
///
/// Why a type: `WIFEXITED`, `WEXITSTATUS` and `WTERMSIG` are macros, which Swift does not
/// import, and the bit arithmetic that stands in for them was written out wherever a child was
/// reaped (the thumbnail helper, the tests' children, the bench's).
public enum ProcessTermination: Sendable, Equatable, CustomStringConvertible {
    /// `exit(status)`, or a return from `main`.
    case exited(Int32)
    /// Ended by this signal.
    case signalled(Int32)

    /// - Parameter status: what `waitpid` stored for a child that ended (not one that stopped:
    ///   ask without `WUNTRACED`).
    public init(waitStatus status: Int32) {
        let signal = status & 0x7F
        self = signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
    }

    /// The status a shell reports: the exit status, or 128 plus the signal's number.
    public var shellStatus: Int32 {
        switch self {
        case .exited(let status): status
        case .signalled(let signal): 128 + signal
        }
    }

    public var description: String {
        switch self {
        case .exited(let status): "exited with status \(status)"
        case .signalled(let signal): "killed by signal \(signal)"
        }
    }
}
