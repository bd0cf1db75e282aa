// SPDX-License-Identifier: Apache-2.0

// Why: a read through the one-file port's shadows against the same read spelled out, each a
// call into ShadowedFixtures inside the scope a test makes: the shadow costs what the
// explicit spelling costs (InstructionBudgets holds it to 5%).
import Ambient
import Foundation
import ShadowedFixtures

/// What the "port:" reads find: a test's defaults, clock and region.
let portContext = InjectionContext()
    .injecting(Defaults.inMemory(["count": 3]))
    .injecting(Clock.fixed(Date(timeIntervalSince1970: 43_200)))
    .injecting(Region.posixUTC)

let portCases: [String: @Sendable (Int) -> Void] = [
    "port: UserDefaults.standard.integer(forKey:), shadowed": { count in
        portContext.run { for _ in 0..<count { consume(shadowedDefaultsRead()) } }
    },
    "port: Defaults.current.integer(forKey:), explicit": { count in
        portContext.run { for _ in 0..<count { consume(explicitDefaultsRead()) } }
    },
    "port: Date(), shadowed": { count in
        portContext.run { for _ in 0..<count { consume(shadowedDate()) } }
    },
    "port: Clock.current.now, explicit": { count in
        portContext.run { for _ in 0..<count { consume(explicitDate()) } }
    },
    "port: Locale.current, shadowed": { count in
        portContext.run { for _ in 0..<count { consume(shadowedLocale()) } }
    },
    "port: Region.current.locale, explicit": { count in
        portContext.run { for _ in 0..<count { consume(explicitLocale()) } }
    },
    // A module queue's `sync` through the port against Dispatch's own, nothing injected and in a
    // test's scope: the work is empty and runs on this thread, so the count is the call's (an
    // `async`'s would take in the queue's thread, which waits differently from run to run).
    "port: DispatchQueue.sync {}, Dispatch's": { count in
        for _ in 0..<count { rawQueue.sync {} }
    },
    "port: DispatchQueue.sync {}, shadowed": { count in
        for _ in 0..<count { shadowedSync() }
    },
    "port: DispatchQueue.sync {}, shadowed, in a scope": { count in
        portContext.run { for _ in 0..<count { shadowedSync() } }
    },
    // `async`, onto the queue held suspended, then run in one batch: each submission and its
    // empty block's run, without the wake-up of the queue's thread for each (which waits
    // differently from run to run).
    "port: DispatchQueue.async {}, batched, Dispatch's": { count in
        rawQueue.suspend()
        for _ in 0..<count { rawQueue.async {} }
        rawQueue.resume()
        rawQueue.sync {}
    },
    "port: DispatchQueue.async {}, batched, shadowed": { count in
        shadowedAsyncBatch(count)
    },
]

/// Dispatch's own serial queue, for the port's queue rows' floor.
private let rawQueue = DispatchQueue(label: "bench.raw")
