// SPDX-License-Identifier: Apache-2.0

// Implementation detail of Ambient. Not API: names, layout and behaviour may change at any time.
#ifndef AMBIENT_SHIMS_H
#define AMBIENT_SHIMS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Bit 0: a task/thread binding has been made at least once in this process, and the
///        runtime's borrowed read passed its self-check (never cleared).
/// Bit 1: a process-wide scope is active right now.
/// Bit 2: an enabled strict mode has been made (never cleared).
/// Bit 3: a binding has been made, but the first binding's self-check found the runtime's
///        borrowed read unusable: reads go through the public `TaskLocal.get()` (set instead
///        of bit 0, never cleared).
/// Bit 4: a scope follower is registered (state outside Ambient that follows scopes onto
///        threads): set after it is published, cleared when the last one is removed.
#define AMBIENT_FLAG_BOUND 1u
#define AMBIENT_FLAG_PROCESS_WIDE 2u
#define AMBIENT_FLAG_STRICT 4u
#define AMBIENT_FLAG_PUBLIC_READ 8u
#define AMBIENT_FLAG_FOLLOWERS 16u
#define AMBIENT_FLAG_TESTING 32u

extern uint32_t _ambient_flags;

/// One acquire load: the whole cost of `current` in a process that never injected anything.
static inline __attribute__((always_inline)) uint32_t _ambient_flags_load(void) {
    return __atomic_load_n(&_ambient_flags, __ATOMIC_ACQUIRE);
}

/// Sets `bits` (read first, so the common "already set" case never writes a shared cache line).
static inline __attribute__((always_inline)) void _ambient_flags_set(uint32_t bits) {
    if ((__atomic_load_n(&_ambient_flags, __ATOMIC_RELAXED) & bits) != bits) {
        __atomic_fetch_or(&_ambient_flags, bits, __ATOMIC_RELEASE);
    }
}

/// Clears `bits`.
static inline __attribute__((always_inline)) void _ambient_flags_clear(uint32_t bits) {
    __atomic_fetch_and(&_ambient_flags, ~bits, __ATOMIC_RELEASE);
}

/// The address of the one `TaskLocal` behind every binding: its key in the runtime's
/// task-local storage. Published (release) before `AMBIENT_FLAG_BOUND` is first set, so
/// a reader that saw the flag (acquire) sees it.
extern const void *_Nullable _ambient_binding_key;

static inline __attribute__((always_inline)) const void *_Nullable _ambient_binding_key_load(void) {
    return __atomic_load_n(&_ambient_binding_key, __ATOMIC_RELAXED);
}

static inline __attribute__((always_inline)) void _ambient_binding_key_store(const void *_Nonnull key) {
    __atomic_store_n(&_ambient_binding_key, key, __ATOMIC_RELEASE);
}

/// The context index's empty leaf (ContextStorage.swift): 16 null words. Every word of a
/// storage's root that no injected type's bucket needed points here, so a lookup loads a
/// leaf and a bucket without first testing for a missing leaf, and a scope copies a leaf
/// without a branch.
extern const void *_Nullable const _ambient_empty_leaf[16];

static inline __attribute__((always_inline)) const void *_Nonnull _ambient_empty_leaf_address(void) {
    return _ambient_empty_leaf;
}

/// Each thread's spare scope storage (a retained `ContextStorage`, or NULL): the storage of
/// the thread's last `withInjected` scope, emptied, for the next scope to reuse instead of
/// allocating (ContextStorage+Recycling.swift). A thread-local because Swift has none that
/// costs less than a call.
///
/// The TLS model is the compiler's default, not initial-exec: linked into an executable (how
/// SwiftPM links a library) the linker relaxes the access to one instruction anyway, and in a
/// shared library that a host `dlopen`s, initial-exec would need the loader's small reserve
/// of static TLS and can fail with "cannot allocate memory in static TLS block"
/// (`Examples/Plugin/scripts/run` checks the library carries no STATIC_TLS flag, then loads
/// it with `dlopen`).
#define AMBIENT_TLS_MODEL
extern _Thread_local void *_Nullable _ambient_spare AMBIENT_TLS_MODEL;
extern _Thread_local int _ambient_spare_tracked AMBIENT_TLS_MODEL;

/// The swift-log bridge's loop guard (Bridges/SwiftLog/SwiftLogSink.swift): nonzero while
/// this thread hands an Ambient entry to swift-log (1: an Ambient sink already has it, 2: only
/// swift-log has it), so an AmbientLogHandler it reaches does not send it round again.
/// swift-log's `log` is synchronous, so a thread-local is exact, and costs no allocation
/// where a task-local binding on a thread would.
extern _Thread_local int _ambient_log_in_flight AMBIENT_TLS_MODEL;

static inline __attribute__((always_inline)) int _ambient_log_in_flight_get(void) { return _ambient_log_in_flight; }

static inline __attribute__((always_inline)) int _ambient_log_in_flight_exchange(int value) {
    int previous = _ambient_log_in_flight;
    _ambient_log_in_flight = value;
    return previous;
}

/// Arranges for `release` to be called with the calling thread's spare when the thread
/// exits (once per thread; `_ambient_spare_put` calls it).
void _ambient_spare_track_thread(void (*_Nonnull release)(void *_Nonnull));

/// An acquire fence: after a uniqueness check finds a storage no one else holds, orders the
/// writes that reuse it after every read made by the threads that dropped it (their
/// releases are release operations; the check's load is not an acquire).
static inline __attribute__((always_inline)) void _ambient_acquire_fence(void) {
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
}

static inline __attribute__((always_inline)) void *_Nullable _ambient_spare_take(void) {
    void *spare = _ambient_spare;
    _ambient_spare = 0;
    return spare;
}

static inline __attribute__((always_inline)) void *_Nullable _ambient_spare_peek(void) { return _ambient_spare; }

static inline __attribute__((always_inline)) void _ambient_spare_put(void *_Nullable spare,
                                                                     void (*_Nonnull release)(void *_Nonnull)) {
    _ambient_spare = spare;
    if (!_ambient_spare_tracked) _ambient_spare_track_thread(release);
}

/// The process-wide scope's published snapshot, read without a lock (hazard pointers).
///
/// The writer (entering or leaving a process-wide scope, under the Swift side's lock) publishes a
/// new snapshot with `_ambient_pw_exchange`, then calls `_ambient_pw_wait_unprotected` on the
/// one it replaced before releasing it. A reader calls `_ambient_pw_protect`, which returns
/// the current snapshot after announcing it in the calling thread's own hazard slot (so
/// the writer cannot release it meanwhile), reads it, and calls `_ambient_pw_unprotect`.
/// Each thread owns one slot, on a cache line of its own, claimed on its first read and
/// given back when the thread exits; readers never write a shared cache line.
const void *_Nullable _ambient_pw_protect(void);
/// Ends the read `_ambient_pw_protect` began on this thread.
void _ambient_pw_unprotect(void);
/// Publishes `snapshot` (or NULL) and returns the one it replaces.
const void *_Nullable _ambient_pw_exchange(const void *_Nullable snapshot);
/// Returns once no thread's hazard slot holds `snapshot`. Reads are a few nanoseconds
/// long, so this yields rather than blocks.
void _ambient_pw_wait_unprotected(const void *_Nonnull snapshot);

/// The runtime's `swift_task_enqueueGlobal_hook` slot, which other tools also write
/// (swift-concurrency-extras' `withMainSerialExecutor` saves, replaces and restores it with
/// plain stores): read with acquire, and replaced by compare-and-swap so that a write from
/// elsewhere in between is never lost.
static inline void *_Nullable _ambient_hook_load(void *_Nullable *_Nonnull slot) {
    return __atomic_load_n(slot, __ATOMIC_ACQUIRE);
}

static inline _Bool _ambient_hook_replace(void *_Nullable *_Nonnull slot, void *_Nullable expected,
                                          void *_Nullable desired) {
    return __atomic_compare_exchange_n(slot, &expected, desired, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

/// The hook Ambient's hook hands uncounted jobs to (another tool's, installed before Ambient
/// put its own back), or NULL: published (release) before Ambient's hook is installed over
/// it, read (acquire) by that hook for every job it does not count.
extern void *_Nullable _ambient_previous_enqueue_hook;

static inline void *_Nullable _ambient_previous_enqueue_hook_load(void) {
    return __atomic_load_n(&_ambient_previous_enqueue_hook, __ATOMIC_ACQUIRE);
}

static inline void _ambient_previous_enqueue_hook_store(void *_Nullable hook) {
    __atomic_store_n(&_ambient_previous_enqueue_hook, hook, __ATOMIC_RELEASE);
}

/// How many tasks are registered as leaving an actor for a TestClock now: while it is 0,
/// Ambient's hook skips the registry's lock for every job it does not count. Raised
/// (release) before a registration is made, lowered after it ends; read with acquire.
extern long _ambient_hook_leavers;

static inline long _ambient_hook_leavers_load(void) {
    return __atomic_load_n(&_ambient_hook_leavers, __ATOMIC_ACQUIRE);
}

static inline void _ambient_hook_leavers_add(long delta) {
    __atomic_fetch_add(&_ambient_hook_leavers, delta, __ATOMIC_ACQ_REL);
}

/// The SwiftLog trait's channel (`SwiftLogChannelRegistration`, retained for the process's
/// life), or NULL until AmbientProviders' logger registers it: read with acquire on each
/// scope's check, published once by compare-and-swap.
extern void *_Nullable _ambient_log_channel;

static inline void *_Nullable _ambient_log_channel_load(void) {
    return __atomic_load_n(&_ambient_log_channel, __ATOMIC_ACQUIRE);
}

static inline _Bool _ambient_log_channel_replace(void *_Nullable expected, void *_Nullable desired) {
    return __atomic_compare_exchange_n(&_ambient_log_channel, &expected, desired, 0, __ATOMIC_ACQ_REL,
                                       __ATOMIC_ACQUIRE);
}

/// AmbientTesting's entry point for recording a report as a failure of the running test
/// (Swift Testing or XCTest): true when it did, false when no test is running.
typedef _Bool (*_ambient_testing_record_issue_t)(const char *_Nonnull message, const char *_Nonnull fileID,
                                                 const char *_Nonnull filePath, long line, long column);

/// That entry point when AmbientTesting is linked into this process (a test target that
/// depends on it), NULL otherwise: resolved at link time where the platform allows a weak
/// reference (ELF), looked up at run time elsewhere. Ambient itself never links a test
/// framework.
_ambient_testing_record_issue_t _Nullable _ambient_testing_record_issue_hook(void);

/// The return addresses of the calling thread's innermost `capacity` frames, innermost first
/// (`backtrace(3)`, which unwinds by the binaries' unwind tables, so frames without a frame
/// pointer count too): how many it wrote; 0 where the C library has no `backtrace`.
int _ambient_return_addresses(void *_Nullable *_Nonnull addresses, int capacity);
/// Byte classes, a bit each, for the carriers' parsers (see `ByteClass`): 0x01 W3C
/// `baggage-octet`, 0x02 a `baggage-octet` but `%`, 0x04 a field name's `a-z0-9-`, 0x08
/// RFC 9110's `tchar`, 0x10 a key id's `a-zA-Z0-9-_`. One load per byte.
/// `ByteClassTests` checks every entry against its definition.
static const uint8_t _ambient_byte_classes[256] = {
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x0b, 0x00, 0x0b, 0x0b, 0x09, 0x0b, 0x0b, 0x03, 0x03, 0x0b, 0x0b, 0x00, 0x1f, 0x0b, 0x03,
    0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x03, 0x00, 0x03, 0x03, 0x03, 0x03,
    0x03, 0x1b, 0x1b, 0x1b, 0x1b, 0x1b, 0x1b, 0x1b, 0x1b, 0x1b, 0x1b, 0x1b, 0x1b, 0x1b, 0x1b, 0x1b,
    0x1b, 0x1b, 0x1b, 0x1b, 0x1b, 0x1b, 0x1b, 0x1b, 0x1b, 0x1b, 0x1b, 0x03, 0x00, 0x03, 0x0b, 0x1b,
    0x0b, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f,
    0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x03, 0x0b, 0x03, 0x0b, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

/// The classes `byte` is in.
static inline __attribute__((always_inline)) uint8_t _ambient_byte_class(uint8_t byte) {
    return _ambient_byte_classes[byte];
}

#ifdef __cplusplus
}
#endif

#endif
