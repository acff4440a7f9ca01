#!/usr/bin/env python3
"""mounts.py: mediafs mounts for the bench (standard library only).

The mount table (/proc/self/mountinfo), processes (alive, ended, mediafs daemons), the FUSE
connection abort, `unmount()` (gentle to forceful) and `MediafsMount`, a context manager that
mounts with a bound, waits until the mount is ready and always unmounts.
"""

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time

FUSECTL = "/sys/fs/fuse/connections"


def log(message):
    print(message, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# The mount table

def unescape(field):
    """mountinfo writes space, tab, newline and backslash as octal escapes (`\\040`)."""
    raw = field.encode("utf-8", "surrogateescape")
    out, i = bytearray(), 0
    while i < len(raw):
        octal = raw[i + 1:i + 4]
        if raw[i] == 0x5C and len(octal) == 3 and all(0x30 <= c <= 0x37 for c in octal):
            out.append(int(octal, 8) & 0xFF)
            i += 4
        else:
            out.append(raw[i])
            i += 1
    return out.decode("utf-8", "surrogateescape")


class MountEntry:
    """One line of /proc/self/mountinfo."""

    __slots__ = ("device", "mount_point", "mount_options", "fstype", "source", "super_options")

    def __init__(self, device, mount_point, mount_options, fstype, source, super_options):
        self.device, self.mount_point, self.mount_options = device, mount_point, mount_options
        self.fstype, self.source, self.super_options = fstype, source, super_options

    @property
    def connection(self):
        """The FUSE connection number: the minor of the mount's device (major 0)."""
        try:
            return int(self.device.split(":")[1])
        except (IndexError, ValueError):
            return None


def mount_table():
    """Every mount, in the order of /proc/self/mountinfo (a stacked mount after the one below it)."""
    entries = []
    with open("/proc/self/mountinfo", encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            fields = line.split()
            if "-" not in fields[6:]:
                continue
            sep = fields.index("-", 6)
            if sep + 2 >= len(fields):
                continue
            super_options = fields[sep + 3] if sep + 3 < len(fields) else ""
            entries.append(MountEntry(fields[2], unescape(fields[4]), fields[5], fields[sep + 1],
                                      unescape(fields[sep + 2]), super_options))
    return entries


def mount_entry(mount_point):
    """The top mount on `mount_point`, or None. Reads the table, never the (maybe hung) mount."""
    found = [e for e in mount_table() if e.mount_point == mount_point]
    return found[-1] if found else None


def is_mounted(mount_point):
    return mount_entry(mount_point) is not None


def mounts_under(folder):
    """Mounts whose mount point lies under `folder`, the last mounted first."""
    prefix = folder.rstrip("/") + "/"
    return [e for e in reversed(mount_table()) if e.mount_point.startswith(prefix)]


def wait_until(predicate, seconds, interval=0.05):
    """Polls `predicate` until it holds or `seconds` have passed; whether it held."""
    deadline = time.monotonic() + seconds
    while True:
        if predicate():
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(interval)


def wait_unmounted(mount_point, seconds):
    return wait_until(lambda: not is_mounted(mount_point), seconds)


# ---------------------------------------------------------------------------------------------
# Processes

def running(pid):
    """Whether process `pid` runs. A zombie does not: a background mount's daemon is reparented
    to PID 1, which may take a while to reap it."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as f:
            stat = f.read()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2:][:1] not in ("Z", "X", "")


def wait_exit(pid, seconds):
    return wait_until(lambda: not running(pid), seconds)


def cmdline(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return [a.decode("utf-8", "surrogateescape") for a in f.read().split(b"\0")[:-1]]
    except OSError:
        return []


def is_mediafs(pid):
    """Alive, and a mediafs (guards against a pid reused by another program)."""
    args = cmdline(pid)
    return running(pid) and bool(args) and os.path.basename(args[0]) == "mediafs"


def end_process(pid, grace=3.0):
    """SIGTERM (and SIGCONT, for a stopped one), then SIGKILL after `grace` seconds; whether it ended."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
        os.kill(pid, signal.SIGCONT)
    if wait_exit(pid, grace):
        return True
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    return wait_exit(pid, 5)


# ---------------------------------------------------------------------------------------------
# Unmounting

def abort_connection(connection):
    """Writes the FUSE connection's abort file: every request waiting on it fails at once and the
    daemon's /dev/fuse reads end. The way out of a hung mount. Whether it was written."""
    if connection is None:
        return False
    if not os.path.isdir(f"{FUSECTL}/{connection}"):
        subprocess.run(["mount", "-t", "fusectl", "none", FUSECTL], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=10, check=False)
    try:
        with open(f"{FUSECTL}/{connection}/abort", "w") as f:
            f.write("1")
    except OSError:
        return False
    log(f"mounts: aborted FUSE connection {connection}")
    return True


def quiet(argv, seconds=20):
    """Runs argv (output discarded) with a bound; whether it exited 0."""
    try:
        return subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, timeout=seconds, check=False).returncode == 0
    except subprocess.TimeoutExpired:
        return False


def detach(mount_point, connection=None):
    """`fusermount3 -u` (once more after a second if busy), then, if the mount still answers
    nothing, abort its connection and unmount lazily. Whether the mount point is free."""
    entry = mount_entry(mount_point)
    if entry is None:
        return True
    if connection is None and entry.fstype.startswith("fuse"):
        connection = entry.connection
    if quiet(["fusermount3", "-u", mount_point]):
        return True
    time.sleep(1)
    if not is_mounted(mount_point) or quiet(["fusermount3", "-u", mount_point]):
        return True
    abort_connection(connection)
    if quiet(["fusermount3", "-u", "-z", mount_point]) or quiet(["umount", "-l", mount_point]):
        return True
    log(f"mounts: could not unmount {mount_point}")
    return not is_mounted(mount_point)


def reap(pid, seconds=10.0):
    """Waits (bounded) for a daemon to exit after its unmount; TERM, then KILL, if it does not."""
    if pid is None or wait_until(lambda: not is_mediafs(pid), seconds, 0.02):
        return True
    log(f"mounts: mediafs (pid {pid}) still running {seconds:.0f} s after unmount; sending TERM")
    return end_process(pid, 2.0)


def unmount(mount_point, pid=None, connection=None):
    """Unmounts gently to forcefully (`detach`), then waits for the daemon `pid` to end (`reap`)."""
    freed = detach(mount_point, connection)
    ended = reap(pid)
    return freed and ended


# ---------------------------------------------------------------------------------------------
# A mediafs mount

class MountError(Exception):
    pass


class MediafsMount:
    """`mediafs mount SOURCE MOUNTPOINT` in the background, as a context manager.

    The daemon gets its own state folder: HOME and XDG_CACHE_HOME point into it (so its cache
    folder is STATE/cache/mediafs), its log is STATE/mediafs.log and its pid STATE/pid; `env` adds
    variables to the daemon's environment (MEDIAFS_OCR_DUMP, say). Mounting
    is bounded (`timeout`); the mount is ready when `mediafs mount` returned 0 (it returns once the
    mount answers), the mount point is a fuse.mediafs mount and the pid file is written.

    Leaving the `with` block always unmounts (`unmount()`): fusermount3 -u, again after a second,
    then aborting the FUSE connection and a lazy unmount; then the daemon is waited for, and ended
    by its pid (TERM, then KILL) if it does not exit. Every live mount is also in `LIVE`, so that a
    watchdog can abort the connections under a command stuck on a hung mount.
    """

    LIVE = set()
    _live_lock = threading.Lock()

    def __init__(self, binary, source, mount_point, state, options="", args=(), timeout=60.0, env=None):
        self.binary, self.source, self.mount_point, self.state = binary, source, mount_point, state
        self.options, self.args, self.timeout = options, list(args), timeout
        self.env = dict(env or {})  # more environment for the daemon (a debugging hook, say)
        self.pid = None
        self.connection = None

    # -- paths and facts

    @property
    def cache_folder(self):
        return os.path.join(self.state, "cache")

    @property
    def log_path(self):
        return os.path.join(self.state, "mediafs.log")

    def path(self, *parts):
        return os.path.join(self.mount_point, *parts)

    def log_text(self):
        try:
            with open(self.log_path, encoding="utf-8", errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def stats(self):
        """The daemon's counters (user.mediafs.stats on the mount's root)."""
        return json.loads(os.getxattr(self.mount_point, "user.mediafs.stats"))

    def counter(self, name):
        try:
            return self.stats().get(name, "?")
        except (OSError, ValueError):
            return "?"

    def peak_rss_kib(self):
        """The daemon's peak resident set (VmHWM, KiB), or None when it cannot be read."""
        return self._status_kib("VmHWM:")

    def rss_kib(self):
        """The daemon's resident set now (VmRSS, KiB), or None when it cannot be read."""
        return self._status_kib("VmRSS:")

    def _status_kib(self, field):
        try:
            with open(f"/proc/{self.pid}/status", encoding="utf-8") as f:
                for line in f:
                    if line.startswith(field):
                        return int(line.split()[1])
        except (OSError, TypeError, ValueError):
            pass
        return None

    # -- mounting

    def mount(self, fresh=True, clear_cache=False):
        """Mounts. `fresh`: a new, empty state folder (nothing persisted by an earlier mount);
        else the state folder is kept, and with `clear_cache` only its cache folder is emptied."""
        if fresh:
            shutil.rmtree(self.state, ignore_errors=True)
        elif clear_cache:
            shutil.rmtree(self.cache_folder, ignore_errors=True)
        os.makedirs(self.cache_folder, exist_ok=True)
        os.makedirs(self.mount_point, exist_ok=True)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(os.path.join(self.state, "pid"))
        # The background analysis would share the machine with what a section measures: a section
        # that measures it (or its effect) asks for it.
        analysis = [] if any(a.startswith("--analysis") for a in self.args) else ["--analysis", "on-demand"]
        argv = [self.binary, "mount"] + (["-o", self.options] if self.options else []) + self.args + analysis + [
            "--log-file", self.log_path, "--pid-file", os.path.join(self.state, "pid"), self.source, self.mount_point]
        env = dict(os.environ, **self.env, HOME=self.state, XDG_CACHE_HOME=self.cache_folder)
        with MediafsMount._live_lock:
            MediafsMount.LIVE.add(self)
        try:
            with open(os.path.join(self.state, "mount.out"), "wb") as out:
                rc = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=out, env=env,
                                    timeout=self.timeout, check=False).returncode
        except subprocess.TimeoutExpired:
            rc = None
        entry = mount_entry(self.mount_point)
        if entry is not None and entry.fstype == "fuse.mediafs":
            self.connection = entry.connection
        if rc != 0 or entry is None or entry.fstype != "fuse.mediafs":
            with open(os.path.join(self.state, "mount.out"), encoding="utf-8", errors="replace") as f:
                said = f.read().strip()
            tail = "\n".join(self.log_text().splitlines()[-20:])
            self.unmount()
            why = f"took more than {self.timeout:.0f} s" if rc is None else (
                f"exited {rc}" if rc != 0 else "returned 0 but the mount point is not a fuse.mediafs mount")
            raise MountError(f"mediafs mount {self.source} {self.mount_point} {why}\n{said}\n{tail}".rstrip())
        pid_file = os.path.join(self.state, "pid")
        if not wait_until(lambda: os.path.exists(pid_file) and os.path.getsize(pid_file) > 0, 5):
            self.unmount()
            raise MountError(f"mediafs wrote no pid file ({pid_file})")
        with open(pid_file, encoding="utf-8") as f:
            self.pid = int(f.read().split()[0])
        return self

    def detach(self):
        """The unmount alone (what a timed figure may include); `reap` waits for the daemon."""
        return detach(self.mount_point, self.connection)

    def reap(self):
        ended = reap(self.pid)
        with MediafsMount._live_lock:
            MediafsMount.LIVE.discard(self)
        self.pid = None
        return ended

    def unmount(self):
        freed = self.detach()
        return self.reap() and freed

    def remount(self, fresh=False, clear_cache=False):
        """A new daemon on the same mount point: `fresh` as in `mount`; by default the state and
        cache folders are kept (a remount over the cache an earlier daemon filled)."""
        self.unmount()
        return self.mount(fresh=fresh, clear_cache=clear_cache)

    def abort(self):
        return abort_connection(self.connection)

    @classmethod
    def abort_all(cls):
        """Aborts the connection of every live mount: frees a command stuck on one."""
        with cls._live_lock:
            live = list(cls.LIVE)
        for m in live:
            m.abort()

    def __enter__(self):
        if self.pid is None:
            self.mount()
        return self

    def __exit__(self, *exc):
        self.unmount()
        return False
