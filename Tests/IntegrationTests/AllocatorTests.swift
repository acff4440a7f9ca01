import Foundation
import Testing
import TestSupport

/// The program runs on jemalloc, libav* included: the track pass's speed rests on it
/// (`Allocator`), and a change to the link (a library order, a linker dropping what seems unused)
/// would lose it without any other test noticing.
@Suite struct AllocatorTests {
    /// The dynamic linker binds libavutil's allocations (`av_malloc` is `posix_memalign`) and the
    /// Swift runtime's to jemalloc, none of them to glibc's.
    @Test func mallocIsJemallocForTheLibrariesToo() throws {
        let result = try Command.run([Mount.binary, "--help"], environment: ["LD_DEBUG": "bindings"])
        expectSuccess(result)
        // "  PID:\tbinding file /lib/…/libavutil.so.57 [0] to /lib/…/libjemalloc.so.2 [0]: normal symbol `posix_memalign' …",
        // from mediafs's process only (the command runs under `timeout`, which the variable reaches too).
        let lines = result.stderr.split(separator: "\n")
        func pid(_ line: Substring) -> Substring { line.split(separator: ":").first ?? "" }
        let program = lines.first { $0.contains("binding file \(Mount.binary) ") }.map(pid)
        #expect(program != nil, "no binding from \(Mount.binary) seen")
        let bindings = lines.filter { line in
            pid(line) == program && ["malloc", "posix_memalign", "free"].contains { line.contains("normal symbol `\($0)'") }
        }
        func target(_ line: Substring) -> Substring? {
            guard let to = line.range(of: "] to ") else { return nil }
            return line[to.upperBound...].split(separator: " ").first
        }
        let fromAVUtil = bindings.filter { $0.contains("libavutil.so") && $0.contains("posix_memalign") }
        #expect(!fromAVUtil.isEmpty, "no binding of libavutil's posix_memalign seen")
        #expect(fromAVUtil.allSatisfy { target($0)?.contains("libjemalloc.so") == true }, "\(fromAVUtil)")
        let toGlibc = bindings.filter { target($0)?.contains("libc.so") == true }
        #expect(toGlibc.isEmpty, "bound to glibc's malloc: \(toGlibc.prefix(5))")
    }

    /// The daemon starts jemalloc's one background thread, which returns freed memory while it is
    /// idle, sets the decay time of every arena to 0 (read back, said at debug level), and a
    /// normal mount logs no warning (the decay once failed at every mount: `arena.4096.*` is no arena).
    @Test(.mounts) func theDaemonSetsItsAllocatorUpWithoutAWarning() throws {
        try LibraryMount.with("allocator", arguments: ["--log-level", "debug"]) { library in
            let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(library.mount.daemon.pid)/task")
            let names = tasks.compactMap {
                try? String(contentsOfFile: "/proc/\(library.mount.daemon.pid)/task/\($0)/comm", encoding: .utf8)
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
            #expect(names.filter { $0 == "jemalloc_bg_thd" }.count == 1, "\(names)")
            let log = library.mount.log
            // "2026-01-01T00:00:00+0000 warning mediafs: [mediafs] …": the level is the second word.
            let warnings = log.split(separator: "\n").filter { line in
                ["warning", "error", "critical"].contains(line.split(separator: " ").dropFirst().first.map(String.init) ?? "")
            }
            #expect(warnings.isEmpty, "\(warnings)")
            #expect(log.contains("jemalloc's decay time is 0 ms in the "), "\(log)")
        }
    }
}
