// SPDX-License-Identifier: Apache-2.0

import Ambient

extension PropagatedValues {
    /// What a caller (a test) may fix for the token service through headers: the clock and
    /// the tenant's flags. Give it to an `AmbientInstrument` on both sides.
    public static let tokenService = PropagatedValues(Clock.self, TenantFlags.self)
}
