// SPDX-License-Identifier: Apache-2.0

import Ambient

/// A value type: `AmbientValue`, as in any module. Under main-actor-by-default, its
/// members are main-actor-isolated unless marked `nonisolated`; a conformance to
/// `AmbientValue` (a `Sendable` protocol) keeps the type nonisolated.
struct FeatureFlags: AmbientValue {
    var expressCheckout: Bool
    static var defaultValue: FeatureFlags { FeatureFlags(expressCheckout: false) }
}
