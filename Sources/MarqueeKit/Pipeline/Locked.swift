import Foundation

/// A value shared between threads behind a lock.
///
/// Built on `NSLock` (a pthread mutex) rather than `Synchronization.Mutex`: ThreadSanitizer
/// follows pthread mutexes, while `Mutex` waits through futex calls inside the uninstrumented
/// standard library, so every access it guards is reported as a race and real races drown.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock.
    func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
