// SPDX-License-Identifier: Apache-2.0

// Why: a test target's one import. `import AmbientTesting` gives what a test of code that
// reads ambient values uses: Ambient (the values it injects, `withInjected`), AmbientTestClock
// (`TestClock`, the tracked and driven queues) and Swift Testing (`@Test`, `#expect`), as the
// README's and the articles' test blocks write them.
@_exported import Ambient
@_exported import AmbientTestClock
@_exported import Testing
