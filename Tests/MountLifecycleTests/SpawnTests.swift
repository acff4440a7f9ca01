import CSpawn
import Foundation
import Glibc
@testable import MountLifecycle
import Testing

/// The one spawner: what a child holds, where it stands and how its end reads, seen from /proc.
@Suite struct SpawnTests {
    /// A `sleep` started by `spawn`, killed and reaped at the end of `body`.
    private func withSleeper(_ spawn: Spawn, _ body: (pid_t) throws -> Void) throws {
        let pid = try spawn.start()
        defer {
            kill(pid, SIGKILL)
            _ = ProcessExit.wait(for: pid)
        }
        try body(pid)
    }

    private func descriptors(of pid: pid_t) -> [Int32: String] {
        let folder = "/proc/\(pid)/fd"
        var result: [Int32: String] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            if let fd = Int32(name), let target = try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + name) {
                result[fd] = target
            }
        }
        return result
    }

    /// /proc/PID/`name` (cmdline, environ) once the child's exec has set it up: posix_spawn
    /// returns as soon as the exec is past its point of no return, before the new arguments show.
    private func procText(_ name: String, of pid: pid_t) -> String {
        let deadline = ContinuousClock.now + .seconds(5)
        while true {
            let text = (try? String(contentsOfFile: "/proc/\(pid)/\(name)", encoding: .utf8)) ?? ""
            if !text.isEmpty || ContinuousClock.now >= deadline { return text }
            usleep(5_000)
        }
    }

    private func statusLine(_ name: String, of pid: pid_t) -> String? {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").first { $0.hasPrefix(name + ":") }
            .map { $0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces) }
    }

    @Test func aChildHoldsOnlyWhatItIsGivenAndStandsApart() throws {
        var pipeEnds: [Int32] = [0, 0]
        try #require(cspawn_pipe2(&pipeEnds, O_CLOEXEC) == 0)
        defer { close(pipeEnds[0]); close(pipeEnds[1]) }
        // Not close-on-exec: a bare posix_spawn would hand it on.
        let stray = open("/dev/zero", O_RDONLY)
        try #require(stray >= 0)
        defer { close(stray) }
        let log = "/tmp/mediafs-spawn-test-\(getpid()).log"
        defer { unlink(log) }

        var spawn = Spawn("/bin/sleep", ["30"], argv0: "sleeper")
        spawn.standardInput = .null
        spawn.standardOutput = .appending(log)
        spawn.standardError = .standardOutput
        spawn.passing = [pipeEnds[0]]
        spawn.closesOtherDescriptors = true
        spawn.grouping = .newSession
        spawn.unblocksAllSignals = true
        spawn.defaultSignals = [SIGTERM]
        spawn.workingDirectory = "/tmp"
        spawn.environment = ["B": "2", "A": "1"]
        try withSleeper(spawn) { pid in
            let held = descriptors(of: pid)
            #expect(held.keys.sorted() == [0, 1, 2, 3], "\(held)")
            #expect(held[0] == "/dev/null" && held[1] == log && held[2] == log, "\(held)")
            #expect(held[3] == descriptors(of: getpid())[pipeEnds[0]], "\(held)")
            #expect(getsid(pid) == pid && getpgid(pid) == pid)
            #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd")) == "/tmp")
            #expect(statusLine("SigBlk", of: pid) == "0000000000000000")
            let cmdline = procText("cmdline", of: pid)
            #expect(cmdline == "sleeper\u{0}30\u{0}")
            let environment = procText("environ", of: pid)
            #expect(environment == "A=1\u{0}B=2\u{0}")
        }
    }

    /// Left at its defaults, a child inherits as with a bare posix_spawn: descriptors that are not
    /// close-on-exec, the process group and session, the working folder, the environment.
    @Test func byDefaultAChildInheritsWhatABareSpawnGives() throws {
        let stray = open("/dev/zero", O_RDONLY)
        try #require(stray >= 0)
        defer { close(stray) }
        try withSleeper(Spawn("/bin/sleep", ["30"])) { pid in
            let held = descriptors(of: pid)
            #expect(held[stray] == "/dev/zero", "\(held)")
            #expect(getpgid(pid) == getpgid(0) && getsid(pid) == getsid(0))
            let cmdline = procText("cmdline", of: pid)
            #expect(cmdline == "/bin/sleep\u{0}30\u{0}")
            let environment = procText("environ", of: pid)
            #expect(environment.contains("PATH="))
        }
    }

    /// Descriptors given under each other's numbers arrive crossed, as asked; the copies made on
    /// the way are closed here. A copy is a descriptor this process did not have before, open on
    /// what 0, 1 or 2 is open on; other tests running meanwhile open and close descriptors of their
    /// own (counting them all failed once in CI), and may open what 0 is for a moment (/dev/null),
    /// so such a descriptor counts as left open only if it stays for 5 s.
    @Test func descriptorsGivenUnderEachOthersNumbersArriveCrossed() throws {
        let ours = descriptors(of: getpid())
        var spawn = Spawn("/bin/sleep", ["30"])
        spawn.standardOutput = .descriptor(2)
        spawn.standardError = .descriptor(1)
        spawn.passing = [0]
        spawn.closesOtherDescriptors = true
        try withSleeper(spawn) { pid in
            let held = descriptors(of: pid)
            #expect(held[1] == ours[2] && held[2] == ours[1] && held[3] == ours[0], "\(held) from \(ours)")
        }
        let given = Set([0, 1, 2].compactMap { ours[$0] })
        func copies() -> [Int32: String] {
            descriptors(of: getpid()).filter { fd, target in ours[fd] != target && given.contains(target) }
        }
        let deadline = ContinuousClock.now + .seconds(5)
        while !copies().isEmpty && ContinuousClock.now < deadline { usleep(50_000) }
        #expect(copies().isEmpty, "copies left open")
    }

    @Test func aNewProcessGroupKeepsTheSession() throws {
        var spawn = Spawn("/bin/sleep", ["30"])
        spawn.grouping = .newProcessGroup
        try withSleeper(spawn) { pid in
            #expect(getpgid(pid) == pid && getsid(pid) == getsid(0))
        }
    }

    @Test func runTellsAnExitFromASignal() throws {
        #expect(try Spawn("/bin/sh", ["-c", "exit 3"]).run() == .exited(3))
        #expect(try Spawn("/bin/sh", ["-c", "kill -KILL $$"]).run() == .signalled(SIGKILL))
        #expect(ProcessExit.signalled(9).description == "killed by signal 9")
    }

    @Test func whatCannotStartIsATypedError() {
        #expect(throws: SpawnError(program: "/no/such/program", call: "posix_spawn", code: ENOENT)) {
            try Spawn("/no/such/program").start()
        }
        var spawn = Spawn("/bin/true")
        spawn.standardOutput = .file("/no/such/folder/out")
        #expect(throws: SpawnError(program: "/bin/true", call: "posix_spawn", code: ENOENT)) {
            try spawn.start()
        }
    }
}
