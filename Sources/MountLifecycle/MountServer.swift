/// What a served mount drives: a file-system server (FuseBridge's `FuseSession`) that mounts,
/// serves requests on the thread that calls `serve()`, and ends.
public protocol MountServer: AnyObject {
    /// Where it mounts (absolute and resolved).
    var mountpoint: String { get }
    /// The type /proc/self/mountinfo shows for its mount (`fuse.mediafs`), which the watchdog checks.
    var fileSystemType: String { get }
    /// Mounts; requests wait for `serve()` from then on.
    func mount() throws
    /// Serves requests until the mount is gone or `stop()` is called, on the calling thread.
    /// - Returns: the loop's code: 0, or a negative errno.
    func serve() -> Int32
    /// Ends serving: stops what the server sends the kernel unasked, and makes a running
    /// `serve()` return soon. Called from another thread than `serve()`'s.
    func stop()
    /// Completes an unmount made from outside, once `serve()` has returned by itself.
    func unmount()
    /// Frees the server once `serve()` has returned with `loopCode`.
    /// - Throws: when the loop ended with an error.
    func close(loopCode: Int32) throws
}
