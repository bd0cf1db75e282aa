// SPDX-License-Identifier: Apache-2.0

import Ambient
import Foundation
import Testing

// Why: what the article's function does, where the page only shows it.

@Suite struct PerformanceBehaviourTests {
    @Test func aHoistedReadStampsEveryEventWithTheInjectedClock() {
        let stamped = withInjected(Clock.fixed(Date(timeIntervalSince1970: 7))) { stamp(["a", "b"]) }
        #expect(stamped == ["7.0 a", "7.0 b"])
    }
}
