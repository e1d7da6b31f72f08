import Foundation

/// A value shared between threads behind a lock.
///
/// Built on a pthread mutex rather than `Synchronization.Mutex`: ThreadSanitizer follows pthread
/// mutexes, while `Mutex` waits through futex calls inside the uninstrumented standard library,
/// so every access it guards is reported as a race and real races drown.
///
/// The mutex is glibc's adaptive kind, which spins a little before it sleeps: the values here
/// are held for well under a microsecond (a dictionary insert), and with a plain mutex two cores
/// keeping pages put each other to sleep and woke each other up thousands of times per build.
final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        #if os(Linux)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
        #endif
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock.
    func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
