import Glibc

/// SIGINT, SIGTERM and SIGHUP, received by one waiting thread instead of a handler.
///
/// `block()` must run at the start of the process, before any thread exists, so that every thread
/// inherits the mask and only `wait()` ever receives these signals.
public enum TerminationSignals {
    static let numbers: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Blocks the signals in the calling thread (and all threads it makes later). A signal that was
    /// ignored (a job started with `&` from a script has SIGINT ignored) is set back to its default
    /// first: an ignored signal is discarded even while blocked.
    public static func block() {
        var set = signalSet()
        for number in numbers { signal(number, SIG_DFL) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Waits for one of the signals and returns its number.
    static func wait() -> Int32 {
        var set = signalSet()
        var number: Int32 = 0
        while sigwait(&set, &number) != 0 {}
        return number
    }

    private static func signalSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for number in numbers { sigaddset(&set, number) }
        return set
    }
}
