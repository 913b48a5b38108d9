import Glibc
import SystemCalls
import Testing

@Suite("ProcessTermination")
struct ProcessTerminationTests {
    /// Runs `/bin/sh -c script` and returns the status `waitpid` stored for it.
    func waitStatus(ofShell script: String) throws -> Int32 {
        var pid: pid_t = 0
        let words: [String] = ["/bin/sh", "-c", script]
        let argv = words.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        try #require(posix_spawn(&pid, "/bin/sh", nil, nil, argv, environ) == 0)
        var status: Int32 = 0
        try #require(retryingEINTR { waitpid(pid, &status, 0) } == pid)
        return status
    }

    @Test("a child's exit status is decoded from what waitpid stored, with the status a shell reports")
    func exited() throws {
        let termination = ProcessTermination(waitStatus: try waitStatus(ofShell: "exit 3"))
        #expect(termination == .exited(3))
        #expect(termination.shellStatus == 3)
        #expect(termination.description == "exited with status 3")
        #expect(ProcessTermination(waitStatus: try waitStatus(ofShell: "exit 0")) == .exited(0))
    }

    @Test("a child ended by a signal is told from one that exited, its shell status 128 plus the signal")
    func signalled() throws {
        let termination = ProcessTermination(waitStatus: try waitStatus(ofShell: "kill -KILL $$"))
        #expect(termination == .signalled(SIGKILL))
        #expect(termination.shellStatus == 128 + SIGKILL)
        #expect(termination.description == "killed by signal \(SIGKILL)")
        // A shell exiting with 137 is not a child killed by SIGKILL.
        #expect(ProcessTermination(waitStatus: try waitStatus(ofShell: "exit 137")) == .exited(137))
    }
}
