// SPDX-License-Identifier: Apache-2.0

// Why: a provider's state is one word (`LiveOr`), so that a never-injected read stays as cheap
// as `Clock`'s; an object behind the seam is a protocol's, two words, so it sits in a box.

/// The object behind a seam (a ``CountedWork``, a ``MainQueueDriver``), boxed so that the
/// provider's `LiveOr` state holds one reference: a stored existential would make every
/// never-injected read of ``MainQueue`` copy and destroy two words
/// (`Benchmarks/instructions 'never injected, MainQueue'`).
@usableFromInline
package final class SeamBox<Wrapped: Sendable>: Sendable {
    package let wrapped: Wrapped

    @usableFromInline
    package init(_ wrapped: Wrapped) {
        self.wrapped = wrapped
    }
}
