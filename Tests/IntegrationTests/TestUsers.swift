import Foundation
import Glibc
import Testing
import TestSupport

/// Two users and a group of one test's own, made with `groupadd` and `useradd` (as root) and
/// removed by `remove()`: `member` belongs to `group`, `other` does not. Commands run as either
/// with `setpriv` (its real and effective ids and groups, as a login would give them), so what the
/// kernel lets them do through a mount is what it would let those users do.
struct TestUsers {
    let group: String
    let member: String
    let other: String

    /// Makes the group and the users; cancels the test with a message where they cannot be made
    /// (not root, no shadow tools, a read-only /etc).
    init(_ tag: String) throws {
        let stem = "mfs\(getpid() % 1_000_000)\(tag)"
        group = stem + "g"
        member = stem + "m"
        other = stem + "o"
        guard MountRequirements.rootMissing == nil else { try Test.cancel("users cannot be made: not root") }
        for tool in ["groupadd", "useradd", "userdel", "groupdel", "setpriv"] where Self.path(of: tool) == nil {
            try Test.cancel("users cannot be made: \(tool) is not installed")
        }
        remove()  // left by a run that died, under a reused pid
        do {
            try Self.retrying(["groupadd", group])
            try Self.retrying(["useradd", "--no-create-home", "--shell", "/usr/sbin/nologin", "--user-group", "--groups", group, member])
            try Self.retrying(["useradd", "--no-create-home", "--shell", "/usr/sbin/nologin", "--user-group", other])
        } catch {
            remove()
            try Test.cancel("users cannot be made: \(error)")
        }
    }

    /// The numeric id of `group`.
    var groupID: gid_t { getgrnam(group)?.pointee.gr_gid ?? 0 }

    /// `sh -c SCRIPT sh ARGUMENTS…` as `user` (with the groups /etc/group gives them).
    func run(as user: String, _ script: String, _ arguments: [String] = [], timeout: Double = 120) throws -> CommandResult {
        try Command.run([Self.path(of: "setpriv") ?? "setpriv", "--reuid=" + user, "--regid=" + user, "--init-groups", "--", "/bin/sh", "-c", script, "sh"]
                        + arguments, timeout: timeout)
    }

    /// Removes the users and the group (each user's own group goes with it).
    func remove() {
        for user in [member, other] where getpwnam(user) != nil { _ = try? Self.retrying(["userdel", user]) }
        if getgrnam(group) != nil { _ = try? Self.retrying(["groupdel", group]) }
    }

    /// Where `tool` is: on PATH, or in the sbin folders a root shell has on it.
    private static func path(of tool: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return (path.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin", "/usr/bin"])
            .map { $0 + "/" + tool }.first { access($0, X_OK) == 0 }
    }

    /// Runs a shadow tool, again while /etc/passwd or /etc/group is locked by another (status 10
    /// for useradd and userdel, 10 for groupadd and groupdel as well), at most for ten seconds.
    private static func retrying(_ arguments: [String]) throws {
        var last: CommandResult?
        let done = try Wait.until(10) {
            let result = try Command.run([path(of: arguments[0]) ?? arguments[0]] + arguments.dropFirst(), timeout: 30)
            last = result
            if result.succeeded { return true }
            guard result.exitCode == 10 || result.stderr.contains("lock") else { throw HarnessError("\(result)") }
            return false
        }
        if !done { throw HarnessError("\(last.map(String.init(describing:)) ?? arguments.joined(separator: " "))") }
    }
}
