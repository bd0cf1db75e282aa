#include "_AmbientShims.h"

uint32_t _ambient_flags = 0;
const void *_ambient_binding_key = 0;
_Thread_local void *_ambient_spare AMBIENT_TLS_MODEL = 0;
_Thread_local int _ambient_spare_tracked AMBIENT_TLS_MODEL = 0;
_Thread_local int _ambient_log_in_flight AMBIENT_TLS_MODEL = 0;

// MARK: - Hazard pointers for the process-wide snapshot

/// One thread's announcement of the snapshot it is reading, alone on its cache line.
typedef struct ambient_hazard_slot {
    const void *pointer;               // the snapshot being read, or NULL (atomic)
    uint32_t claimed;                  // 1 while a live thread owns the slot (atomic)
    struct ambient_hazard_slot *next;  // immutable once published in the list
} __attribute__((aligned(64))) ambient_hazard_slot;

static const void *ambient_pw_snapshot = 0;          // the published snapshot (atomic)
static ambient_hazard_slot *ambient_hazard_slots = 0; // every slot ever made (atomic head)
static _Thread_local ambient_hazard_slot *ambient_my_slot = 0;

static ambient_hazard_slot *ambient_hazard_claim(void);

const void *_ambient_pw_protect(void) {
    ambient_hazard_slot *slot = ambient_my_slot;
    if (!slot) slot = ambient_hazard_claim();
    const void *snapshot = __atomic_load_n(&ambient_pw_snapshot, __ATOMIC_ACQUIRE);
    while (snapshot) {
        // Announce, then check it is still the published one: if it is, the writer's
        // scan (which follows its exchange) will see the announcement.
        __atomic_store_n(&slot->pointer, snapshot, __ATOMIC_SEQ_CST);
        const void *again = __atomic_load_n(&ambient_pw_snapshot, __ATOMIC_SEQ_CST);
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
    return __atomic_exchange_n(&ambient_pw_snapshot, snapshot, __ATOMIC_SEQ_CST);
}

#if defined(_WIN32)
#include <windows.h>
void _ambient_pw_wait_unprotected(const void *snapshot) {
    for (ambient_hazard_slot *slot = __atomic_load_n(&ambient_hazard_slots, __ATOMIC_ACQUIRE); slot; slot = slot->next) {
        while (__atomic_load_n(&slot->pointer, __ATOMIC_ACQUIRE) == snapshot) SwitchToThread();
    }
}
// No thread-exit hook here: a slot stays claimed by its thread for the process's life, and a
// thread's spare scope storage is not released at exit (the Swift side keeps none on Windows).
void _ambient_spare_track_thread(void (*release)(void *)) {
    (void)release;
    _ambient_spare_tracked = 1;
}

static ambient_hazard_slot *ambient_hazard_claim(void) {
    ambient_hazard_slot *slot = _aligned_malloc(sizeof(ambient_hazard_slot), 64);
    slot->pointer = 0;
    slot->claimed = 1;
    slot->next = __atomic_load_n(&ambient_hazard_slots, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(&ambient_hazard_slots, &slot->next, slot, 1, __ATOMIC_RELEASE, __ATOMIC_RELAXED)) {}
    ambient_my_slot = slot;
    return slot;
}
#else
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

void _ambient_pw_wait_unprotected(const void *snapshot) {
    for (ambient_hazard_slot *slot = __atomic_load_n(&ambient_hazard_slots, __ATOMIC_ACQUIRE); slot; slot = slot->next) {
        while (__atomic_load_n(&slot->pointer, __ATOMIC_ACQUIRE) == snapshot) sched_yield();
    }
}

static pthread_key_t ambient_spare_key;
static pthread_once_t ambient_spare_once = PTHREAD_ONCE_INIT;
static void (*ambient_spare_release)(void *) = 0;

/// A thread exits: its spare storage is released (the Swift side's `release`).
static void ambient_spare_thread_exit(void *unused) {
    (void)unused;
    void *spare = _ambient_spare;
    _ambient_spare = 0;
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

/// A thread exits: its slot goes back for the next new thread to claim.
static void ambient_hazard_release(void *value) {
    ambient_hazard_slot *slot = value;
    ambient_my_slot = 0;  // a read in a later destructor claims a slot afresh
    __atomic_store_n(&slot->pointer, 0, __ATOMIC_RELEASE);
    __atomic_store_n(&slot->claimed, 0, __ATOMIC_RELEASE);
}

static void ambient_hazard_make_key(void) { pthread_key_create(&ambient_hazard_key, ambient_hazard_release); }

/// The calling thread's first read: a free slot, or a new one added to the list.
static ambient_hazard_slot *ambient_hazard_claim(void) {
    pthread_once(&ambient_hazard_once, ambient_hazard_make_key);
    ambient_hazard_slot *slot = __atomic_load_n(&ambient_hazard_slots, __ATOMIC_ACQUIRE);
    for (; slot; slot = slot->next) {
        uint32_t free = 0;
        if (__atomic_compare_exchange_n(&slot->claimed, &free, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) break;
    }
    if (!slot) {
        void *memory = 0;
        if (posix_memalign(&memory, 64, sizeof(ambient_hazard_slot)) != 0) abort();
        slot = memory;
        slot->pointer = 0;
        slot->claimed = 1;
        slot->next = __atomic_load_n(&ambient_hazard_slots, __ATOMIC_RELAXED);
        while (!__atomic_compare_exchange_n(&ambient_hazard_slots, &slot->next, slot, 1, __ATOMIC_RELEASE,
                                            __ATOMIC_RELAXED)) {
        }
    }
    ambient_my_slot = slot;
    pthread_setspecific(ambient_hazard_key, slot);
    return slot;
}
#endif
