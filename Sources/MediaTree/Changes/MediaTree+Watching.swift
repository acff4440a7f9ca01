import Logging

extension MediaTree {
    /// Watches the source for changes until `close()`: each batch of changes is handed to `sink` on
    /// the watcher's thread.
    /// Without inotify (no instance could be made), logs a warning: changes are then seen within
    /// the kernel's cache time only, through the tree's checks of the source on every request.
    public func watchSource(reportingTo sink: any SourceChangeSink) {
        changeSink.withLock { $0 = sink }
        do {
            let watcher = try SourceWatcher(root: resolvedRoot, logger: logger) { [logger] changes in
                logger.debug("source changed: \(changes.everything ? "everything" : "\(changes.paths.sorted())")")
                sink.sourceChanged(changes)
            }
            let previous = watching.withLock { slot in
                defer { slot = watcher }
                return slot
            }
            previous?.stop()
            watcher.start()
        } catch {
            logger.warning("source changes cannot be watched (inotify: \(error)): they are seen within the kernel's cache time only")
        }
    }

    /// Waits until the source's folders are watched (at most `seconds`; false when they are not, or
    /// nothing watches): changes made after that are all reported.
    public func waitUntilWatching(seconds: Double) -> Bool {
        watching.withLock { $0 }?.waitUntilWatching(seconds: seconds) ?? false
    }

    /// Whether every folder of the source is watched, so that every change is reported as it happens.
    public var watchesEverySourceFolder: Bool {
        watching.withLock { $0?.watchesEverything ?? false }
    }

    /// Stops watching the source; no report follows once this returns.
    func stopWatching() {
        watching.withLock { slot in
            defer { slot = nil }
            return slot
        }?.stop()
    }
}
