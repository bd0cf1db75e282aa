// SPDX-License-Identifier: Apache-2.0

#if canImport(Darwin)
import Darwin
// Why: one lock type for the whole library, with a condition for the few waits it needs.

#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif os(Windows)
import WinSDK
#endif

/// Ambient's one lock: a mutex with a condition, used by every part of the library that
/// guards shared state (`Locked`, the process-wide scope, the providers' fakes and stores,
/// AmbientTesting's trait state). Never held across a suspension.
///
/// Built on the platform's mutex rather than `Synchronization.Mutex` (macOS 15; the floor
/// is 13) or `NSLock` (Foundation, and no condition to wait on).
///
/// ```swift
/// let lock = Lock()
/// lock.withLock { counter += 1 }
/// ```
///
/// Not recursive: a thread that takes it again while holding it stops with a message
/// (on Windows, it deadlocks).
package final class Lock: @unchecked Sendable {
    // @unchecked: the mutex and condition are the synchronisation; they live at stable
    // addresses allocated here and are only touched through the platform's calls.
    #if os(Windows)
    // A slim reader/writer lock taken exclusively (never recursive, as the POSIX
    // error-checking mutex is not).
    private let mutex = UnsafeMutablePointer<SRWLOCK>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<CONDITION_VARIABLE>.allocate(capacity: 1)
    #else
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    #endif

    /// A new, unlocked lock.
    package init() {
        #if os(Windows)
        InitializeSRWLock(mutex)
        InitializeConditionVariable(condition)
        #else
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
        let made = pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        precondition(made == 0, "Ambient.Lock: pthread_mutex_init failed (\(made))")
        pthread_cond_init(condition, nil)
        #endif
    }

    deinit {
        #if !os(Windows)
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        #endif
        mutex.deallocate()
        condition.deallocate()
    }

    /// Takes the lock, waiting while another thread holds it.
    package func lock() {
        #if os(Windows)
        AcquireSRWLockExclusive(mutex)
        #else
        let result = pthread_mutex_lock(mutex)
        precondition(result == 0, "Ambient.Lock: lock failed (\(result)); the lock taken twice by one thread?")
        #endif
    }

    /// Releases the lock, which the calling thread must hold.
    package func unlock() {
        #if os(Windows)
        ReleaseSRWLockExclusive(mutex)
        #else
        let result = pthread_mutex_unlock(mutex)
        precondition(result == 0, "Ambient.Lock: unlock failed (\(result)); released by a thread not holding it?")
        #endif
    }

    /// Runs `body` with the lock held.
    @inline(__always)
    package func withLock<R, Failure: Error>(_ body: () throws(Failure) -> R) throws(Failure) -> R {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Releases the lock (which the calling thread holds), waits for ``broadcast()``, and
    /// holds it again before returning. Wake-ups can be spurious: wait in a loop that
    /// checks the condition you wait for.
    package func wait() {
        #if os(Windows)
        _ = SleepConditionVariableSRW(condition, mutex, INFINITE, 0)
        #else
        let result = pthread_cond_wait(condition, mutex)
        precondition(result == 0, "Ambient.Lock: wait failed (\(result)); the lock must be held")
        #endif
    }

    /// Wakes every thread in ``wait()``.
    package func broadcast() {
        #if os(Windows)
        WakeAllConditionVariable(condition)
        #else
        pthread_cond_broadcast(condition)
        #endif
    }
}
