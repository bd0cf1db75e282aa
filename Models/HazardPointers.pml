/*
 * The process-wide snapshot's hazard-pointer protocol (Sources/_AmbientShims/shims.c), with
 * the writer's stores passing through a store buffer, as they may on AArch64 (RCpc) and, for
 * a plain store, on x86-64: a store becomes visible to the other thread some time after it
 * executes, unless a fence drains the buffer first. The reader's announcement is a SEQ_CST
 * store followed by a SEQ_CST load, which no architecture may reorder, so its store is
 * visible before its load (modelled by doing both in order, unbuffered).
 *
 * Property: a snapshot is never freed while a reader that announced it is using it
 * (`assert(!freed[s])` at the use). The writer publishes two new snapshots in turn and frees
 * each one it replaces once no hazard slot holds it; two readers read twice each.
 *
 *   spin -a -DFENCE Models/HazardPointers.pml && gcc -O2 -o pan pan.c && ./pan    # holds
 *   spin -a Models/HazardPointers.pml && gcc -O2 -o pan pan.c && ./pan            # violated
 *
 * scripts/model-check runs both and checks the outcomes.
 */

#define NONE 0
#define READERS 2

byte published = 1;          /* the snapshot in memory, as readers see it */
byte hazard[READERS];        /* each reader's slot, NONE when not reading */
bool freed[4];               /* freed[s]: snapshot s has been released */

/* The writer's store buffer: one pending store of `published`. */
byte pending = NONE;

/* A store leaves the buffer whenever it likes. */
active proctype Drain() {
end:
    do
    :: atomic { pending != NONE -> published = pending; pending = NONE }
    od
}

active [READERS] proctype Reader() {
    byte me = _pid - 1;      /* Drain is pid 0 */
    byte s, again, round;
    for (round : 1 .. 2) {
        s = published;                  /* the acquire load of the published snapshot */
retry:
        hazard[me] = s;                 /* R1: announce (SEQ_CST store) */
        again = published;              /* R2: still published? (SEQ_CST load) */
        if
        :: again != s -> s = again; goto retry
        :: else -> skip
        fi;
        assert(!freed[s]);              /* reading the snapshot: it must not be freed */
        hazard[me] = NONE               /* unprotect (release store) */
    }
}

active proctype Writer() {
    byte old, next, slot;
    for (next : 2 .. 3) {
        /* W1: exchange. The RMW reads the latest value (its own pending store first), and
           its store goes into the buffer. */
        atomic {
            if
            :: pending != NONE -> old = pending
            :: else -> old = published
            fi;
            pending = next
        }
#ifdef FENCE
        /* W2: the SEQ_CST fence drains the buffer before any later load. */
        atomic {
            if
            :: pending != NONE -> published = pending; pending = NONE
            :: else -> skip
            fi
        }
#endif
        /* W3: wait until no slot holds the old snapshot (acquire loads of the slots). */
        for (slot : 0 .. READERS - 1) {
            (hazard[slot] != old)
        }
        freed[old] = true               /* W4 */
    }
}
