import Foundation
import Glibc

/// Processes of the whole system as /proc shows them, for finding helpers a daemon started
/// (libfuse's fusermount3, mediafs's watchdog) and looking at what they hold.
public enum Processes {
    /// The arguments of process `pid` (empty once it is gone or a zombie).
    public static func arguments(of pid: pid_t) -> [String] {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty else { return [] }
        return data.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
    }

    /// The live processes (not zombies) whose arguments satisfy `test`.
    public static func matching(_ test: ([String]) -> Bool) -> [pid_t] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.compactMap { pid_t($0) }.filter { pid in
            let arguments = arguments(of: pid)
            return !arguments.isEmpty && test(arguments) && ChildProcess.isAlive(pid)
        }.sorted()
    }

    /// libfuse's auto_unmount helper for the mount on `point`: `fusermount3 -o … -- POINT`.
    public static func autoUnmountHelpers(of point: String) -> [pid_t] {
        matching { ($0.first as NSString?)?.lastPathComponent == "fusermount3" && $0.last == point && !$0.contains("-u") }
    }

    /// mediafs's watchdog for the mount on `point`: `mediafs watch-mount … POINT`.
    public static func watchdogs(of point: String) -> [pid_t] {
        matching { $0.count > 1 && $0[1] == "watch-mount" && $0.last == point }
    }

    /// The open descriptors of `pid` and what each names (`/dev/fuse`, `pipe:[…]`, a path).
    public static func descriptors(of pid: pid_t) -> [Int32: String] {
        let folder = "/proc/\(pid)/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var result: [Int32: String] = [:]
        for name in names {
            guard let fd = Int32(name), let target = try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + name)
            else { continue }
            result[fd] = target
        }
        return result
    }

    /// The bytes `pid` has read so far, from any file (`rchar` of /proc/PID/io); nil once it is gone.
    public static func bytesRead(by pid: pid_t) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("rchar:") }) else { return nil }
        return Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces))
    }

    /// Whether descriptor `fd` of `pid` is close-on-exec (O_CLOEXEC in its fdinfo flags).
    public static func isCloseOnExec(_ fd: Int32, of pid: pid_t) -> Bool? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/fdinfo/\(fd)", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("flags:") }),
              let flags = Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8) else { return nil }
        return flags & Int(O_CLOEXEC) != 0
    }

    /// Waits at most `timeout` seconds until `pid` is blocked in `read(fd, …)` (from
    /// /proc/PID/syscall: number 0, first argument `fd`), past its start-up; whether it is.
    @discardableResult
    public static func waitUntilReading(_ pid: pid_t, fd: Int32, timeout: Double) -> Bool {
        Wait.until(timeout) {
            let call = (try? String(contentsOfFile: "/proc/\(pid)/syscall", encoding: .utf8)) ?? ""
            let fields = call.split(separator: " ")
            return fields.count > 1 && fields[0] == "0" && Int32(fields[1].dropFirst(2), radix: 16) == fd
        }
    }

    /// Waits at most `timeout` seconds for `pid` to be gone (or a zombie); whether it is.
    @discardableResult
    public static func waitUntilGone(_ pid: pid_t, timeout: Double) -> Bool {
        Wait.until(timeout) { !ChildProcess.isAlive(pid) }
    }

    /// The live processes (not zombies, which hold no file) of process group `group`.
    public static func members(ofGroup group: pid_t) -> [pid_t] {
        // Nothing has that group any more, not even a zombie: the common case, without reading /proc.
        if kill(-group, 0) != 0 && errno == ESRCH { return [] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.compactMap { pid_t($0) }.filter { pid in
            // /proc/PID/stat: "PID (COMMAND) STATE PPID PGRP …"; the command may hold spaces and parentheses.
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = text.lastIndex(of: ")") else { return false }
            let fields = text[text.index(after: close)...].split(separator: " ")
            return fields.count > 2 && pid_t(fields[2]) == group && fields[0] != "Z" && fields[0] != "X"
        }.sorted()
    }
}
