import Foundation

/// Broadcasts build results to the open browser tabs as server-sent events: `reload` after a
/// good build, `failure` (with the error text) after a bad one.
actor ReloadHub {
    private var subscribers: [UUID: AsyncStream<String>.Continuation] = [:]
    /// The last failure, sent to tabs that connect while the site is broken.
    private(set) var lastFailure: String?

    func subscribe() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        let id = UUID()
        subscribers[id] = continuation
        continuation.onTermination = { _ in Task { await self.remove(id) } }
        continuation.yield(": connected\n\n")
        if let lastFailure { continuation.yield(Self.event("failure", lastFailure)) }
        return stream
    }

    func buildSucceeded() {
        lastFailure = nil
        send(Self.event("reload", "ok"))
    }

    func buildFailed(_ message: String) {
        lastFailure = message
        send(Self.event("failure", message))
    }

    func ping() {
        send(": ping\n\n")
    }

    func finishAll() {
        for continuation in subscribers.values { continuation.finish() }
        subscribers.removeAll()
    }

    private func send(_ event: String) {
        for continuation in subscribers.values { continuation.yield(event) }
    }

    private func remove(_ id: UUID) {
        subscribers[id] = nil
    }

    /// One SSE message; every line of the data gets its own `data:` field.
    static func event(_ name: String, _ data: String) -> String {
        "event: \(name)\n" + data.split(separator: "\n", omittingEmptySubsequences: false).map { "data: \($0)\n" }.joined() + "\n"
    }
}
