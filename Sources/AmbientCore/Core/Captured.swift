// SPDX-License-Identifier: Apache-2.0

// Why: objects outlive scopes: a property keeps the values of the scope that created its object.

/// An ambient value as an object sees it: the value of the scope that *created* the object,
/// kept for callbacks that run later, on other threads and queues, where no scope reaches.
///
/// Objects outlive the scope that made them: a view model, a manager, a scheduler hands
/// closures to `DispatchQueue`, `Timer`, `NotificationCenter` or a completion handler, and
/// those run with no binding at all. A `@Captured` property captures the creating scope's
/// ``InjectionContext`` when the object is initialised and answers from it wherever the
/// object is used:
///
/// ```swift
/// final class ReminderScheduler {
///     @Captured var clock: Clock          // the clock of the scope that made the scheduler
///     @Captured var log: Logger
///
///     func scheduleCheck(completion: @escaping @Sendable (Date) -> Void) {
///         DispatchQueue.global().async { [self] in
///             log.info("checking")         // the creating scope's logger, on a global queue
///             completion(clock.now)        // and its clock
///         }
///     }
/// }
/// ```
///
/// A read looks, in order, at:
/// 1. the scope around the read, if it injects the type (a test wrapping an object that
///    was made earlier, a singleton made at launch, still wins);
/// 2. the scope that created the object;
/// 3. everything ``AmbientValue/current`` looks at: a process-wide scope, strict mode,
///    the default. The strict mode that applies is found in the same order: an object made
///    inside a strict test reports the reads its callbacks make of types nobody injected,
///    on whatever thread they run.
///
/// This is what swift-dependencies' `@Dependency` gives class-based code. The captured
/// context keeps its values alive for as long as the object lives. A property wrapper
/// needs a `var`: in a `Sendable` class, keep a `let` of the wrapper type instead and read
/// ``wrappedValue``:
///
/// ```swift
/// final class Poller: Sendable {
///     private let clock = Captured<Clock>()
///     func stamp() -> Date { clock.wrappedValue.now }
/// }
/// ```
@propertyWrapper
public struct Captured<Value: AmbientValue>: Sendable {
    /// Everything injected where this property was initialised.
    public let context: InjectionContext

    /// Captures the current ``InjectionContext``: call it (or let the property wrapper
    /// call it) where the object is made.
    public init() {
        self.context = InjectionContext.current
    }

    /// Captures `context` instead of the current one.
    public init(from context: InjectionContext) {
        self.context = context
    }

    /// The value here: the surrounding scope's if it injects one, else the creating
    /// scope's, else ``AmbientValue/current``. Never allocates.
    @inlinable
    public var wrappedValue: Value {
        Value._current(capturedIn: context.storage)
    }

    /// The captured context, to run more code in it: `$clock.run { … }`.
    public var projectedValue: InjectionContext {
        context
    }
}
