// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

// @testable: the borrowed read's self-check and the flag word it sets (Binding, RuntimeFlags)
// are internal to AmbientCore, and these tests check them directly.
@testable import AmbientCore

/// The read borrows the bound context through a runtime entry point no API promises
/// (Binding.swift). The first binding checks it against `TaskLocal.get()`; if they ever
/// differ, every read takes the public path. These tests check the check, and run the whole
/// surface on the fallback path in a child process.
@Suite struct BorrowedReadTests {
    @Test func theSelfCheckPassesOnThisRuntime() {
        withInjected(Tag("any binding")) { #expect(Tag.current == Tag("any binding")) }
        #expect(!RuntimeFlags.readsThroughTaskLocalGet)
        #expect(Binding.borrowedReadWorks(key: Binding.key))
    }

    @Test func everyReadIsRightOnTheFallbackPath() async {
        await #expect(processExitsWith: .success) {
            RuntimeFlags.useTaskLocalGetForEveryRead()
            var failures = 0
            func check(_ condition: Bool) { if !condition { failures += 1 } }
            check(RuntimeFlags.readsThroughTaskLocalGet)
            check(Tag.current == Tag.defaultValue)
            withInjected(Tag("outer"), Number(value: 1)) {
                check(Tag.current == Tag("outer"))
                withInjected(Tag("inner")) {
                    check(Tag.current == Tag("inner"))
                    check(Number.current == Number(value: 1))
                    check(InjectionContext.current[Tag.self] == Tag("inner"))
                }
                let context = InjectionContext.current
                let fromThread = Locked<Tag?>(nil)
                let thread = Thread { context.run { fromThread.set(Tag.current) } }
                thread.start()
                while fromThread.get() == nil { usleep(1_000) }
                check(fromThread.get() == Tag("outer"))
                let captured = Captured<Number>()
                check(captured.wrappedValue == Number(value: 1))
            }
            check(Tag.current == Tag.defaultValue)
            check(InjectionContext.current.isEmpty)
            let fromTask = await withInjected(Tag("task")) {
                await Task { Tag.current }.value
            }
            check(fromTask == Tag("task"))
            await withInjectedProcessWide(Number(value: 7)) { () async in
                check(await Task.detached { Number.current }.value == Number(value: 7))
            }
            exit(failures == 0 ? 0 : 1)
        }
    }
}
