// SPDX-License-Identifier: Apache-2.0

// Why: work that leaves the task (queues, threads, objects) carries the values as a snapshot.

/// An immutable snapshot of injected values: what ``withInjected(_:operation:)`` scopes have made
/// current at some point, captured so it can be carried elsewhere and re-entered.
///
/// Every ``withInjected(_:operation:)`` scope is a new context (the enclosing one plus the values
/// it injects) bound to the running task, or, in synchronous code outside any task, to the
/// running thread. Child tasks (`async let`, task groups, `Task { }`) inherit it; code that
/// runs elsewhere — `Task.detached`, `DispatchQueue.async`, a `Thread` — does not, until
/// you carry it there:
///
/// ```swift
/// let context = InjectionContext.current          // capture here…
/// DispatchQueue.global().async {
///     context.run { legacyWork() }                // …re-enter there
/// }
/// DispatchQueue.global().async(execute: context.bind { legacyWork() })  // same, shorter
/// ```
///
/// A context is a value: cheap to copy (one reference), `Sendable`, and it keeps the
/// values it holds alive for as long as it exists. How one becomes current, and how a read
/// finds it, is in Binding.swift.
public struct InjectionContext: Sendable {
    /// The values, indexed (ContextStorage.swift); `nil` for the empty context. `nonisolated(unsafe)`: the
    /// storage is immutable and holds only `Sendable` values (see `ContextStorage`).
    @usableFromInline
    nonisolated(unsafe) var storage: ContextStorage?

    /// `storage`, unretained: for a storage made on top of it while this context holds it.
    @inlinable
    var unretainedStorage: Unmanaged<ContextStorage>? {
        storage.map { Unmanaged.passUnretained($0) }
    }

    /// The empty context: nothing injected, every value at its default.
    public init() {
        storage = nil
    }

    @inlinable
    init(storage: ContextStorage?) {
        self.storage = storage
    }

    /// This context with `values` injected on top: the same as what
    /// `withInjected(values…) { InjectionContext.current }` would return when run inside
    /// this context. Where two values share a type, the later argument wins.
    ///
    /// ```swift
    /// let testContext = InjectionContext().injecting(FeatureFlags(newCheckout: true))
    /// testContext.run { runCheckout() }
    /// ```
    @inlinable
    public func injecting<each V: Injectable>(_ values: repeat each V) -> InjectionContext {
        InjectionContext(storage: ContextStorage.make(repeat each values, over: unretainedStorage))
    }

    // The one-, two- and three-value forms of `injecting` are in ArityLadder.swift.

    /// This context with every value `other` injects on top: where both inject a type,
    /// `other`'s value wins. For composing contexts built in different places:
    ///
    /// ```swift
    /// let suiteFakes = InjectionContext().injecting(Defaults.inMemory())
    /// let testFakes = InjectionContext().injecting(Clock.fixed(noon))
    /// suiteFakes.injecting(contentsOf: testFakes).run { runTest() }
    /// ```
    public func injecting(contentsOf other: InjectionContext) -> InjectionContext {
        var slots: [ContextSlot] = []
        other.storage?.forEachSlot { slots.append($0) }
        var result = self
        for slot in slots.reversed() {  // outermost first, so the innermost ends on top
            result = Self.injecting(slot.type, at: slot.value, into: result)
        }
        return result
    }

    /// `context` with the `V` stored at `address` injected on top (`V` opened from a slot).
    private static func injecting<V: Injectable>(
        _: V.Type,
        at address: UnsafeRawPointer,
        into context: InjectionContext
    ) -> InjectionContext {
        context.injecting(address.assumingMemoryBound(to: V.self).pointee)
    }

    /// The value this context injects for `type`, or `nil` if it injects none. Does not
    /// fall back to the process-wide scope or the default (that is ``AmbientValue/current``).
    ///
    /// ```swift
    /// #expect(InjectionContext.current[FeatureFlags.self]?.newCheckout == true)
    /// ```
    @inlinable
    public subscript<V: Injectable>(_ type: V.Type) -> V? {
        storage?.value(of: type)
    }

    /// Whether nothing is injected in this context.
    public var isEmpty: Bool {
        storage.map { $0.slotCount == 0 } ?? true
    }

    /// The types this context injects a value for, innermost scope first.
    public var injectedTypes: [any Injectable.Type] {
        var types: [any Injectable.Type] = []
        storage?.forEachSlot { types.append($0.type) }
        return types
    }
}
