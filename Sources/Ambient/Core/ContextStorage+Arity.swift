// The spelled-out one-, two- and three-value ladder, in one place
// ================================================================
// Each arity's `make` (which stores the values, last argument first) sits beside its
// `empty` (which destroys them in the same slots, each slot's type checked in debug builds),
// so the slot order one writes is the order the other reads.
//
// These forms of `make` behave exactly as the variadic one in ContextStorage.swift; the
// spelled-out `injecting` overloads call them.
// They exist only for speed: the compiler does not yet specialise the generic calls made
// inside a parameter-pack expansion (`repeat …(each V)…`), so the variadic form goes
// through unspecialised metadata for every value. They can go once it does: when the
// benchmark rows "scope: withInjected variadic, 1 value" and "…, 3 values" (which build
// their storage through the variadic `make`) measure the same as the rows without
// "variadic", delete this file and the other overloads, and nothing else changes.

extension ContextStorage {
    /// A new storage holding `value` on top of `parent`'s.
    @inlinable
    static func make<V: Injectable>(one value: V, over parent: ContextStorage?) -> ContextStorage {
        make(
            owned: 1,
            bytes: reservation(for: V.self),
            over: parent,
            reinjects: { ObjectIdentifier($0) == ObjectIdentifier(V.self) },
            place: { slots, cursor in
                var index = 1
                storeValue(value, in: slots, at: &index, bytes: &cursor)
            }
        )
    }

    /// `empty()` for a storage made by `make(one:over:)` with a `V`.
    @inlinable
    func empty<V: Injectable>(_: V.Type) {
        withUnsafeMutablePointerToElements { slots in
            Self.destroyValue(V.self, of: slots[0])
        }
        emptied()
    }

    /// A new storage holding `a` and `b` on top of `parent`'s (specialised, as ``make(one:over:)``).
    /// Labelled, as `three:` is: unlabelled, the variadic `make` (which returns an optional,
    /// as `InjectionContext(storage:)` takes) would win overload resolution.
    @inlinable
    static func make<A: Injectable, B: Injectable>(two a: A, _ b: B, over parent: ContextStorage?) -> ContextStorage {
        make(
            owned: 2,
            bytes: reservation(for: A.self) + reservation(for: B.self),
            over: parent,
            reinjects: { isAmong($0, A.self, B.self) },
            place: { slots, cursor in
                var index = 2
                storeValue(a, in: slots, at: &index, bytes: &cursor)
                storeValue(b, in: slots, at: &index, bytes: &cursor)
            }
        )
    }

    /// `empty()` for a storage made by `make(two:_:over:)` with an `A` and a `B`.
    @inlinable
    func empty<A: Injectable, B: Injectable>(_: A.Type, _: B.Type) {
        withUnsafeMutablePointerToElements { slots in
            Self.destroyValue(B.self, of: slots[0])  // last argument first
            Self.destroyValue(A.self, of: slots[1])
        }
        emptied()
    }

    /// A new storage holding `a`, `b` and `c` on top of `parent`'s (specialised).
    @inlinable
    static func make<A: Injectable, B: Injectable, C: Injectable>(
        three a: A, _ b: B, _ c: C, over parent: ContextStorage?
    ) -> ContextStorage {
        make(
            owned: 3,
            bytes: reservation(for: A.self) + reservation(for: B.self) + reservation(for: C.self),
            over: parent,
            reinjects: { isAmong($0, A.self, B.self, C.self) },
            place: { slots, cursor in
                var index = 3
                storeValue(a, in: slots, at: &index, bytes: &cursor)
                storeValue(b, in: slots, at: &index, bytes: &cursor)
                storeValue(c, in: slots, at: &index, bytes: &cursor)
            }
        )
    }

    /// `empty()` for a storage made by `make(three:_:_:over:)` with an `A`, a `B` and a `C`.
    @inlinable
    func empty<A: Injectable, B: Injectable, C: Injectable>(_: A.Type, _: B.Type, _: C.Type) {
        withUnsafeMutablePointerToElements { slots in
            Self.destroyValue(C.self, of: slots[0])  // last argument first
            Self.destroyValue(B.self, of: slots[1])
            Self.destroyValue(A.self, of: slots[2])
        }
        emptied()
    }
}
