// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Testing

@Suite("withInjected: synchronous scopes")
struct InjectionTests {
    @Test func outsideAnyScopeTheDefaultIsCurrent() {
        #expect(Tag.current == Tag("default"))
        #expect(Service.current === Service.live)
        #expect(InjectionContext.current.isEmpty)
    }

    @Test func insideAScopeTheInjectedValueIsCurrent() {
        withInjected(Tag("injected")) {
            #expect(Tag.current == Tag("injected"))
        }
    }

    @Test func returnsTheBodysResult() {
        let result = withInjected(Number(value: 7)) { Number.current.value * 6 }
        #expect(result == 42)
    }

    @Test func thePriorValueIsBackAfterReturn() {
        withInjected(Tag("outer")) {
            withInjected(Tag("inner")) {}
            #expect(Tag.current == Tag("outer"))
        }
        #expect(Tag.current == Tag("default"))
    }

    @Test func thePriorValueIsBackAfterATypedThrow() {
        withInjected(Tag("outer")) {
            #expect(throws: TestFailure(code: 1)) {
                try withInjected(Tag("inner")) { () throws(TestFailure) in
                    #expect(Tag.current == Tag("inner"))
                    throw TestFailure(code: 1)
                }
            }
            #expect(Tag.current == Tag("outer"))
        }
        #expect(Tag.current == Tag("default"))
    }

    @Test func typedThrowsKeepTheirType() {
        do throws(TestFailure) {
            try withInjected(Tag("x")) { () throws(TestFailure) in throw TestFailure(code: 2) }
        } catch {
            // `error` is statically a TestFailure: this line would not compile otherwise.
            #expect(error.code == 2)
        }
    }

    @Test func thePriorValueIsBackAfterAnUntypedThrow() {
        struct Untyped: Error {}
        #expect(throws: Untyped.self) {
            try withInjected(Tag("inner")) { throw Untyped() }
        }
        #expect(Tag.current == Tag("default"))
    }

    @Test func innermostScopeWinsAndOuterValuesStayVisible() {
        withInjected(Tag("outer"), Number(value: 1)) {
            withInjected(Tag("inner")) {
                #expect(Tag.current == Tag("inner"))
                #expect(Number.current.value == 1)  // not re-injected: the outer value
                withInjected(Number(value: 2)) {
                    #expect(Tag.current == Tag("inner"))
                    #expect(Number.current.value == 2)
                }
                #expect(Number.current.value == 1)
            }
            #expect(Tag.current == Tag("outer"))
        }
    }

    @Test func injectsManyValuesOfDifferentTypesAtOnce() {
        let service = Service(name: "fake")
        withInjected(Tag("t"), Number(value: 3), service, Mode.offline, Marker()) {
            #expect(Tag.current == Tag("t"))
            #expect(Number.current.value == 3)
            #expect(Service.current === service)
            #expect(Mode.current == .offline)
            #expect(Marker.current == Marker())
            #expect(InjectionContext.current.injectedTypes.count == 5)
        }
        #expect(Service.current === Service.live)
        #expect(Mode.current == .live)
    }

    @Test func whenTwoValuesShareATypeTheLaterArgumentWins() {
        withInjected(Tag("first"), Number(value: 1), Tag("second")) {
            #expect(Tag.current == Tag("second"))
            #expect(InjectionContext.current.injectedTypes.count == 2)
        }
    }

    @Test func everyArityKeepsTheRules() {
        // One, two and three values take specialised paths; four and more the variadic one.
        withInjected(Tag("outer"), Number(value: 1), Mode.offline, Marker()) {
            withInjected(Tag("a"), Tag("b")) { #expect(Snapshot.take() == Snapshot(tag: "b", number: 1)) }
            withInjected(Number(value: 2), Tag("c"), Number(value: 3)) {
                #expect(Snapshot.take() == Snapshot(tag: "c", number: 3))
                #expect(Mode.current == .offline)
            }
            withInjected(Tag("d"), Number(value: 4), Mode.live, Tag("e")) {
                #expect(Snapshot.take() == Snapshot(tag: "e", number: 4))
                #expect(InjectionContext.current.injectedTypes.count == 4)
            }
            #expect(Snapshot.take() == Snapshot(tag: "outer", number: 1))
        }
    }

    @Test func storesValuesOfAnyLayout() {
        let aligned = Aligned(vector: [1, 2, 3, 4])
        let wide = Wide(9)
        withInjected(Marker(), aligned, Number(value: 5), wide, Mode.offline) {
            #expect(Aligned.current == aligned)
            #expect(Wide.current == wide)
            #expect(Number.current.value == 5)
            withInjected(Aligned(vector: [5, 6, 7, 8])) {
                #expect(Aligned.current.vector == [5, 6, 7, 8])
                #expect(Wide.current == wide)
            }
        }
    }

    @Test func aScopeWithNoValuesChangesNothing() {
        withInjected(Tag("outer")) {
            let before = InjectionContext.current
            withInjected {
                #expect(Tag.current == Tag("outer"))
                #expect(InjectionContext.current.injectedTypes.count == before.injectedTypes.count)
            }
        }
    }

    @Test func readsStayCorrectAtDepth() {
        // 200 nested scopes alternating two types: every level sees its own values.
        func nest(_ level: Int) {
            guard level < 200 else { return }
            let value = level.isMultiple(of: 2) ? nil : level
            if let value {
                withInjected(Number(value: value)) {
                    #expect(Number.current.value == value)
                    #expect(Tag.current == Tag("level \(level - 1)"))
                    nest(level + 1)
                    #expect(Number.current.value == value)
                }
            } else {
                withInjected(Tag("level \(level)")) {
                    #expect(Tag.current == Tag("level \(level)"))
                    nest(level + 1)
                }
            }
        }
        nest(0)
        #expect(InjectionContext.current.isEmpty)
    }

    @Test func anEarlyReturnFromALoopRestores() {
        func firstMatch() -> Int? {
            for index in 0..<10 {
                let found: Int? = withInjected(Number(value: index)) {
                    Number.current.value == 3 ? Number.current.value : nil
                }
                if let found { return found }
            }
            return nil
        }
        #expect(firstMatch() == 3)
        #expect(Number.current.value == 0)
    }
}
