// SPDX-License-Identifier: Apache-2.0

// Why: a context prints what it injects, for test failures and debugging.

extension InjectionContext: CustomStringConvertible, CustomDebugStringConvertible {
    /// The injected types and values, innermost first, on one line:
    /// `InjectionContext(FeatureFlags: FeatureFlags(newCheckout: true), Clock: …)`.
    ///
    /// ```swift
    /// print(InjectionContext.current)   // what is injected right here?
    /// ```
    public var description: String {
        render(separator: ", ", prefix: "InjectionContext(", suffix: ")") { slot in
            "\(slot.type): \(_describe(slot.type, at: slot.value, reflecting: false))"
        }
    }

    /// One line per injected value, with module-qualified type names and each value's
    /// `debugDescription`, innermost first.
    public var debugDescription: String {
        render(separator: "\n", prefix: "InjectionContext {\n", suffix: "\n}") { slot in
            "  \(String(reflecting: slot.type)) = \(_describe(slot.type, at: slot.value, reflecting: true))"
        }
    }

    private func render(
        separator: String,
        prefix: String,
        suffix: String,
        _ line: (ContextSlot) -> String
    ) -> String {
        var lines: [String] = []
        storage?.forEachSlot { lines.append(line($0)) }
        if lines.isEmpty { return "InjectionContext(empty)" }
        return prefix + lines.joined(separator: separator) + suffix
    }
}

/// Describes the `V` at `address` (with `V` opened from a slot).
private func _describe<V: Injectable>(_: V.Type, at address: UnsafeRawPointer, reflecting: Bool) -> String {
    let value = address.assumingMemoryBound(to: V.self).pointee
    return reflecting ? String(reflecting: value) : String(describing: value)
}
