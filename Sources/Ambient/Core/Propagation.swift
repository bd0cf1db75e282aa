extension InjectionContext {
    /// Runs `body` inside this context: the values it holds are current, exactly as they
    /// were where it was captured, and the enclosing scope's values, if any, are hidden for
    /// the duration: every other type reads as it would outside any scope (an active
    /// process-wide scope's value, else its default).
    ///
    /// Use it to carry injected values to code that does not inherit them:
    ///
    /// ```swift
    /// let context = InjectionContext.current
    /// let thread = Thread {
    ///     context.run { legacyWorker() }
    /// }
    /// thread.start()
    /// ```
    ///
    /// - Returns: Whatever `body` returns.
    @inlinable
    public func run<R, Failure: Error>(_ body: () throws(Failure) -> R) throws(Failure) -> R {
        RuntimeFlags.markBound()
        // `TaskLocal.withValue` rethrows untyped errors; carry the typed outcome through it
        // as a value instead, so no error is ever cast back.
        return try InjectionContext._binding.withValue(self) { _capture(body) }.get()
    }

    /// Runs the asynchronous `body` inside this context, on the caller's isolation.
    ///
    /// ```swift
    /// let context = InjectionContext.current
    /// Task.detached {
    ///     await context.run { await refreshInBackground() }
    /// }
    /// ```
    ///
    /// - Returns: Whatever `body` returns.
    @inlinable
    public func run<R, Failure: Error>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws(Failure) -> R
    ) async throws(Failure) -> R {
        RuntimeFlags.markBound()
        return try await InjectionContext._binding.withValue(
            self,
            operation: { await _capture(body) },
            isolation: isolation
        ).get()
    }

    /// Wraps `body` so that, wherever and whenever it is called, it runs inside this
    /// context. For escaping closures handed to code that runs them elsewhere:
    /// `DispatchQueue.async(execute:)`, `Thread(block:)`, completion handlers of any arity.
    ///
    /// ```swift
    /// let context = InjectionContext.current
    /// queue.async(execute: context.bind {
    ///     assert(Clock.current.now == fixedDate)   // the caller's injected clock
    /// })
    /// legacyFetch(completion: context.bind { (data: Data?, error: Error?) in
    ///     handle(data, error)                      // sees the caller's injected values
    /// })
    /// ```
    @inlinable
    public func bind<each Argument, R>(
        _ body: @escaping @Sendable (repeat each Argument) -> R
    ) -> @Sendable (repeat each Argument) -> R {
        { (arguments: repeat each Argument) -> R in
            self.run { body(repeat each arguments) }
        }
    }

    /// Wraps a throwing `body` so that, wherever and whenever it is called, it runs inside
    /// this context. Errors pass through unchanged.
    @inlinable
    public func bind<each Argument, R>(
        _ body: @escaping @Sendable (repeat each Argument) throws -> R
    ) -> @Sendable (repeat each Argument) throws -> R {
        { (arguments: repeat each Argument) throws -> R in
            try self.run { try body(repeat each arguments) }
        }
    }
}

/// Runs `body`, returning its result or its typed error as a `Result`.
@inlinable
func _capture<R, Failure: Error>(_ body: () throws(Failure) -> R) -> Result<R, Failure> {
    do throws(Failure) {
        return .success(try body())
    } catch {
        return .failure(error)
    }
}

/// Runs the asynchronous `body`, returning its result or its typed error as a `Result`.
@inlinable
func _capture<R, Failure: Error>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws(Failure) -> R
) async -> Result<R, Failure> {
    do throws(Failure) {
        return .success(try await body())
    } catch {
        return .failure(error)
    }
}
