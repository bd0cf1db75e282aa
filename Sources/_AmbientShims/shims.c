// SPDX-License-Identifier: Apache-2.0

// _AmbientShims: the only C in Ambient: what ARCHITECTURE.md's "What the C shim holds"
// lists (atomics, thread-locals, the carriers' byte table), nothing else.
//
// THE PROCESS-WIDE SNAPSHOT'S HAZARD POINTERS: PROOF OBLIGATION
// ==============================================================
// A writer (under the Swift side's lock) replaces the published snapshot and frees the old
// one once no reader can be reading it; readers take no lock. Safety — a snapshot is never
// freed while a reader that announced it is copying from it — rests on this store-buffering
// pattern, and on nothing weaker:
//
//   reader (`_ambient_pw_protect`)              writer (`_ambient_pw_exchange`, `_ambient_pw_wait_unprotected`)
//   R1  hazard := s           (SEQ_CST store)   W1  old := exchange(published, new)   (SEQ_CST RMW)
//   R2  again := published    (SEQ_CST load)    W2  SEQ_CST fence
//   R3  again == s ? use s : retry              W3  for each slot: wait while slot == old   (ACQUIRE loads)
//                                               W4  free old
//
// C11 (N2310 7.17.3p6-7): R1, R2, W1 and W2 are in the single total order S. Either W2
// precedes R2 in S — then R2, a SEQ_CST load after the fence W2 whose thread did W1 before
// it, reads W1's value or a later one, so `again != old` and the reader retries instead of
// using `old` — or R1 precedes W2 in S, and then each W3 load, sequenced after the fence W2,
// reads R1's announcement or a later store of that slot, so the writer waits for the reader
// to clear it (its release store in `_ambient_pw_unprotect`) before W4. W2 is needed: without
// it the W3 loads may be satisfied before W1 is visible to other threads (AArch64 with RCpc:
// `LDAPR` may pass an earlier `STLXR`), the reader can use `old` while the writer misses the
// announcement, and the writer frees memory the reader is reading. x86-64's locked exchange
// is already a full barrier, so there the fence costs nothing more.
//
// The model `Models/HazardPointers.pml` checks the protocol with store buffers (spin): with
// the fence it holds in every interleaving; without it spin prints the interleaving that
// frees a snapshot in use. `scripts/model-check` runs both; CI runs it.
//
// Other obligations, each stated where it is met: the binding key is published (release)
// before the "bound" flag (`_AmbientShims.h`); a thread's spare storage is only ever touched
// by its own thread, and released by its exit hook (below); a hazard slot is claimed with an
// acquire CAS and given back with release stores at thread exit.

#include "_AmbientShims.h"

uint32_t _ambient_flags = 0;
const void *const _ambient_empty_leaf[16] = {0};
const void *_ambient_binding_key = 0;
_Thread_local void *_ambient_spare AMBIENT_TLS_MODEL = 0;
_Thread_local int _ambient_spare_tracked AMBIENT_TLS_MODEL = 0;
_Thread_local int _ambient_log_in_flight AMBIENT_TLS_MODEL = 0;

// MARK: - Hazard pointers for the process-wide snapshot

/// One thread's announcement of the snapshot it is reading, alone on its cache line (128
/// bytes on Apple silicon, whose lines are 128; 64 elsewhere).
#if defined(__APPLE__) && defined(__aarch64__)
#define AMBIENT_CACHE_LINE 128
#else
#define AMBIENT_CACHE_LINE 64
#endif
typedef struct ambient_hazard_slot {
    const void *pointer;               // the snapshot being read, or NULL (atomic)
    uint32_t claimed;                  // 1 while a live thread owns the slot (atomic)
    struct ambient_hazard_slot *next;  // immutable once published in the list
} __attribute__((aligned(AMBIENT_CACHE_LINE))) ambient_hazard_slot;

static const void *ambient_pw_snapshot = 0;          // the published snapshot (atomic)
static ambient_hazard_slot *ambient_hazard_slots = 0; // every slot ever made (atomic head)
static _Thread_local ambient_hazard_slot *ambient_my_slot AMBIENT_TLS_MODEL = 0;

static ambient_hazard_slot *ambient_hazard_claim(void);

const void *_ambient_pw_protect(void) {
    ambient_hazard_slot *slot = ambient_my_slot;
    if (!slot) slot = ambient_hazard_claim();
    const void *snapshot = __atomic_load_n(&ambient_pw_snapshot, __ATOMIC_ACQUIRE);
    while (snapshot) {
        // Announce, then check it is still the published one: if it is, the writer's
        // scan (which follows its exchange) will see the announcement.
        __atomic_store_n(&slot->pointer, snapshot, __ATOMIC_SEQ_CST);                  // R1
        const void *again = __atomic_load_n(&ambient_pw_snapshot, __ATOMIC_SEQ_CST);  // R2
        if (again == snapshot) return snapshot;
        snapshot = again;
    }
    __atomic_store_n(&slot->pointer, 0, __ATOMIC_RELEASE);
    return 0;
}

void _ambient_pw_unprotect(void) {
    ambient_hazard_slot *slot = ambient_my_slot;
    if (slot) __atomic_store_n(&slot->pointer, 0, __ATOMIC_RELEASE);
}

const void *_ambient_pw_exchange(const void *snapshot) {
    return __atomic_exchange_n(&ambient_pw_snapshot, snapshot, __ATOMIC_SEQ_CST);  // W1
}

/// W2 of the protocol at the top of this file: orders the exchange before the scan.
static inline void ambient_pw_scan_fence(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

#include <stdlib.h>
#if defined(_WIN32)
#include <windows.h>
#define ambient_yield() SwitchToThread()
#else
#include <pthread.h>
#include <sched.h>
#define ambient_yield() sched_yield()
#endif

void _ambient_pw_wait_unprotected(const void *snapshot) {
    ambient_pw_scan_fence();  // W2
    for (ambient_hazard_slot *slot = __atomic_load_n(&ambient_hazard_slots, __ATOMIC_ACQUIRE); slot; slot = slot->next) {
        while (__atomic_load_n(&slot->pointer, __ATOMIC_ACQUIRE) == snapshot) ambient_yield();  // W3
    }
}

/// A thread exits: its slot goes back for the next new thread to claim.
static void ambient_hazard_release(void *value) {
    ambient_hazard_slot *slot = value;
    ambient_my_slot = 0;  // a read in a later destructor claims a slot afresh
    __atomic_store_n(&slot->pointer, 0, __ATOMIC_RELEASE);
    __atomic_store_n(&slot->claimed, 0, __ATOMIC_RELEASE);
}

/// A slot no live thread owns, claimed for the caller; else a new one, added to the list.
static ambient_hazard_slot *ambient_hazard_find_or_make(void) {
    ambient_hazard_slot *slot = __atomic_load_n(&ambient_hazard_slots, __ATOMIC_ACQUIRE);
    for (; slot; slot = slot->next) {
        uint32_t free = 0;
        if (__atomic_compare_exchange_n(&slot->claimed, &free, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) return slot;
    }
#if defined(_WIN32)
    slot = _aligned_malloc(sizeof(ambient_hazard_slot), AMBIENT_CACHE_LINE);
    if (!slot) abort();
#else
    void *memory = 0;
    if (posix_memalign(&memory, AMBIENT_CACHE_LINE, sizeof(ambient_hazard_slot)) != 0) abort();
    slot = memory;
#endif
    slot->pointer = 0;
    slot->claimed = 1;
    slot->next = __atomic_load_n(&ambient_hazard_slots, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(&ambient_hazard_slots, &slot->next, slot, 1, __ATOMIC_RELEASE,
                                        __ATOMIC_RELAXED)) {
    }
    return slot;
}

#if defined(_WIN32)
// Thread exit through fiber-local storage callbacks (FlsAlloc's callback runs when the thread
// exits): the hazard slot goes back for reuse. No spare scope storage is kept on Windows (the
// Swift side's cache is off there), so its hook only records that the thread is tracked.
static DWORD ambient_hazard_fls = FLS_OUT_OF_INDEXES;
static INIT_ONCE ambient_hazard_once = INIT_ONCE_STATIC_INIT;

static void NTAPI ambient_hazard_fls_release(void *value) {
    if (value) ambient_hazard_release(value);
}

static BOOL CALLBACK ambient_hazard_make_key(PINIT_ONCE once, void *parameter, void **context) {
    (void)once;
    (void)parameter;
    (void)context;
    ambient_hazard_fls = FlsAlloc(ambient_hazard_fls_release);
    return ambient_hazard_fls != FLS_OUT_OF_INDEXES;
}

void _ambient_spare_track_thread(void (*release)(void *)) {
    (void)release;
    _ambient_spare_tracked = 1;
}

static ambient_hazard_slot *ambient_hazard_claim(void) {
    InitOnceExecuteOnce(&ambient_hazard_once, ambient_hazard_make_key, 0, 0);
    ambient_hazard_slot *slot = ambient_hazard_find_or_make();
    ambient_my_slot = slot;
    if (ambient_hazard_fls != FLS_OUT_OF_INDEXES) FlsSetValue(ambient_hazard_fls, slot);
    return slot;
}
#else
static pthread_key_t ambient_spare_key;
static pthread_once_t ambient_spare_once = PTHREAD_ONCE_INIT;
static void (*ambient_spare_release)(void *) = 0;

/// A thread exits: its spare storage is released (the Swift side's `release`).
static void ambient_spare_thread_exit(void *unused) {
    (void)unused;
    void *spare = _ambient_spare;
    _ambient_spare = 0;
    // Untracked again: a scope run by a later thread-exit destructor (another library's)
    // re-arms this hook, and pthreads calls it again in its next round, so that scope's
    // spare is released too instead of leaking.
    _ambient_spare_tracked = 0;
    void (*release)(void *) = __atomic_load_n(&ambient_spare_release, __ATOMIC_ACQUIRE);
    if (spare && release) release(spare);
}

static void ambient_spare_make_key(void) { pthread_key_create(&ambient_spare_key, ambient_spare_thread_exit); }

void _ambient_spare_track_thread(void (*release)(void *)) {
    pthread_once(&ambient_spare_once, ambient_spare_make_key);
    __atomic_store_n(&ambient_spare_release, release, __ATOMIC_RELEASE);
    _ambient_spare_tracked = 1;
    // Any non-NULL value: it only makes the key's destructor run when this thread exits.
    pthread_setspecific(ambient_spare_key, (void *)1);
}

static pthread_key_t ambient_hazard_key;
static pthread_once_t ambient_hazard_once = PTHREAD_ONCE_INIT;

static void ambient_hazard_make_key(void) { pthread_key_create(&ambient_hazard_key, ambient_hazard_release); }

/// The calling thread's first read: a free slot, or a new one added to the list.
static ambient_hazard_slot *ambient_hazard_claim(void) {
    pthread_once(&ambient_hazard_once, ambient_hazard_make_key);
    ambient_hazard_slot *slot = ambient_hazard_find_or_make();
    ambient_my_slot = slot;
    pthread_setspecific(ambient_hazard_key, slot);
    return slot;
}
#endif

void *_Nullable _ambient_previous_enqueue_hook = NULL;
long _ambient_hook_leavers = 0;
void *_Nullable _ambient_log_channel = NULL;

// AmbientTesting's entry point (IssueReporter.automatic). ELF: a weak reference, NULL unless
// AmbientTesting's object is linked into the same program; Apple platforms: the symbol
// looked up in the process (weak references to undefined symbols do not link there).
#if defined(__ELF__)
extern _Bool ambient_testing_record_issue(const char *message, const char *fileID, const char *filePath, long line,
                                          long column) __attribute__((weak));

_ambient_testing_record_issue_t _Nullable _ambient_testing_record_issue_hook(void) {
    return ambient_testing_record_issue;
}
#elif defined(__APPLE__)
#include <dlfcn.h>

_ambient_testing_record_issue_t _Nullable _ambient_testing_record_issue_hook(void) {
    return (_ambient_testing_record_issue_t)dlsym(RTLD_DEFAULT, "ambient_testing_record_issue");
}
#else
_ambient_testing_record_issue_t _Nullable _ambient_testing_record_issue_hook(void) {
    return NULL;
}
#endif

// The calling thread's return addresses, for telling a static's one-time initialiser apart
// (AmbientProviders' `OnceInitialiser`): glibc and Apple's libc have `backtrace`; elsewhere
// (musl, Windows) nothing is seen and nothing is reported.
#if defined(__GLIBC__) || defined(__APPLE__)
#include <execinfo.h>
int _ambient_return_addresses(void **addresses, int capacity) { return backtrace(addresses, capacity); }
#else
int _ambient_return_addresses(void **addresses, int capacity) {
    (void)addresses;
    (void)capacity;
    return 0;
}
#endif
