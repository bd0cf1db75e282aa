// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders

// Why: servers differ in where they look: `ambient-*` headers, W3C baggage, or both.

/// Where propagated values travel in a request.
///
/// - ``fields``: one field per value, named after its type (`ambient-clock: fixed:0.0`), and
///   `ambient-signature` when signed. Readable in a log; dropped by a proxy that forwards
///   only the headers it knows.
/// - ``baggage``: entries of the W3C `baggage` header
///   (`baggage: ambient-clock=fixed:0.0,ambient-signature=v1:…`), which services in any
///   language forward with OpenTelemetry or by hand: the values, and their signature,
///   cross a hop that knows nothing of Ambient. The signature covers the decoded values,
///   so a hop that re-escapes an entry does not break it; one that alters a value does.
public enum PropagationFormat: Sendable, Hashable {
    /// One `ambient-*` field per value.
    case fields
    /// Entries of the W3C `baggage` header.
    case baggage
}
