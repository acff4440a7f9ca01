import Logging

extension MediaTree {
    /// Watches the source for changes until `close()`: each batch of changes becomes the names and
    /// nodes it makes stale (`invalidations(after:)`), handed to `sink` on the watcher's thread.
    /// Without inotify (no instance could be made), logs a warning: changes are then seen within
    /// the kernel's cache time only, through the tree's checks of the source on every request.
    public func watchSource(reportingTo sink: any InvalidationSink) {
        do {
            let watcher = try SourceWatcher(root: resolvedRoot, logger: logger) { [weak self] changes in
                guard let self else { return }
                let stale = invalidations(after: changes)
                logger.debug("source changed: \(changes.everything ? "everything" : "\(changes.paths.sorted())"), \(stale.count) to invalidate")
                if !stale.isEmpty { sink.invalidate(stale) }
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
