import _AmbientShims

/// The Swift runtime's task-local lookup (the function `TaskLocal.get()` calls): the
/// address of the value bound to `key` in the current task — or, outside any task, on the
/// current thread — or `nil`. The returned storage stays valid while the binding does,
/// which for the running code is at least until it returns.
///
/// Called directly rather than through `TaskLocal.get()` so a read can *borrow* the bound
/// context instead of copying it (a generic, non-inlinable call plus a retain/release
/// pair). It is an exported entry point of the concurrency runtime, stable since Swift 5.5.
@usableFromInline
@_silgen_name("swift_task_localValueGet")
func _ambientTaskLocalValueGet(key: UnsafeRawPointer) -> UnsafeMutableRawPointer?

extension InjectionContext {
    /// The key of ``_binding`` in the runtime's task-local storage: the `TaskLocal`
    /// object's address, exactly as `TaskLocal` itself computes it.
    @usableFromInline
    static var _bindingKey: UnsafeRawPointer {
        UnsafeRawPointer(Unmanaged.passUnretained(_binding).toOpaque())
    }

    /// Calls `body` with the storage bound to this task/thread (without retaining it), or
    /// returns `nil` when nothing is bound. Only valid once `RuntimeFlags.bound` is set.
    @inlinable
    static func _withBoundStorage<R>(_ body: (ContextStorage) -> R?) -> R? {
        _boundStorage()?._withUnsafeGuaranteedRef(body)
    }

    /// The storage bound to this task/thread, unretained: valid while the binding is, which
    /// for the running code is at least until it returns. `nil` when nothing (or the empty
    /// context) is bound. Only valid once `RuntimeFlags.bound` is set.
    @inlinable
    static func _boundStorage() -> Unmanaged<ContextStorage>? {
        guard let key = _ambient_binding_key_load(),
            let item = _ambientTaskLocalValueGet(key: key),
            // An `InjectionContext` is exactly one optional reference (checked by a test).
            let object = item.load(as: UnsafeRawPointer?.self)
        else { return nil }
        return Unmanaged<ContextStorage>.fromOpaque(object)
    }
}
