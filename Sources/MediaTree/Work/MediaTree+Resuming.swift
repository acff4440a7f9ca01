import Dispatch

/// The one way a request waits for work another thread does: it is run again once that is done.
extension MediaTree {
    /// Runs `body`, the work of one request, which answers through the reply it is given. Where the
    /// work meets a value another thread is working out (`Pending`: a probe, a chapter list),
    /// thrown or answered (a node's attributes are answered, not thrown), it is run again once the
    /// value is there, on another thread, so that no thread waits for another's work; anything
    /// else reaches `reply`.
    public func resuming<Value>(_ reply: @escaping Reply<Value>,
                                _ body: @escaping @Sendable (_ reply: @escaping Reply<Value>) throws -> Void) {
        // Counted from the request's start to its answer, which the background analysis yields to.
        activity.begin()
        runAgainWhenReady({ [activity] result in
            activity.end()
            reply(result)
        }, body)
    }

    private func runAgainWhenReady<Value>(_ reply: @escaping Reply<Value>,
                                          _ body: @escaping @Sendable (_ reply: @escaping Reply<Value>) throws -> Void) {
        let again: @Sendable (Pending) -> Void = { [self] pending in
            pending.whenReady { [self] in
                DispatchQueue.global(qos: .userInitiated).async { self.runAgainWhenReady(reply, body) }
            }
        }
        do {
            try body { result in
                if case .failure(let pending as Pending) = result { again(pending) } else { reply(result) }
            }
        } catch let pending as Pending {
            again(pending)
        } catch {
            reply(.failure(error))
        }
    }
}
