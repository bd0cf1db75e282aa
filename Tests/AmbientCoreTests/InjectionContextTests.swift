// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Testing

@Suite("InjectionContext: capture, build, inspect")
struct InjectionContextTests {
    @Test func currentCapturesEverythingInjectedHere() {
        withInjected(Tag("a"), Number(value: 1)) {
            withInjected(Mode.offline) {
                let context = InjectionContext.current
                #expect(context[Tag.self] == Tag("a"))
                #expect(context[Number.self] == Number(value: 1))
                #expect(context[Mode.self] == .offline)
                #expect(context[Service.self] == nil)
            }
        }
    }

    @Test func aCapturedContextIsASnapshot() {
        let outer = withInjected(Tag("before")) { () -> InjectionContext in
            let captured = InjectionContext.current
            withInjected(Tag("later")) {}
            return captured
        }
        #expect(outer[Tag.self] == Tag("before"))
    }

    @Test func injectingBuildsAContextWithoutEnteringIt() {
        let base = InjectionContext().injecting(Tag("base"), Number(value: 1))
        let derived = base.injecting(Number(value: 2))
        #expect(base[Number.self] == Number(value: 1))
        #expect(derived[Number.self] == Number(value: 2))
        #expect(derived[Tag.self] == Tag("base"))
        #expect(Tag.current == Tag("default"))  // building does not bind
        derived.run { #expect(Snapshot.take() == Snapshot(tag: "base", number: 2)) }
    }

    @Test func injectedTypesListsEachTypeOnceInnermostFirst() {
        let context = InjectionContext()
            .injecting(Tag("a"), Number(value: 1))
            .injecting(Mode.offline, Tag("b"))
        let names = context.injectedTypes.map { "\($0)" }
        #expect(names == ["Tag", "Mode", "Number"])
        #expect(!context.isEmpty)
        #expect(InjectionContext().isEmpty)
        #expect(InjectionContext().injecting().isEmpty)
    }

    @Test func descriptionListsTypesAndValues() {
        let context = InjectionContext().injecting(Number(value: 3)).injecting(Tag("shown"))
        #expect(context.description == "InjectionContext(Tag: Tag(shown), Number: Number(value: 3))")
        #expect("\(InjectionContext())" == "InjectionContext(empty)")
    }

    @Test func debugDescriptionQualifiesTypesOneLinePerValue() {
        let context = InjectionContext().injecting(Tag("a"), Mode.offline)
        #expect(
            context.debugDescription == """
                InjectionContext {
                  AmbientCoreTests.Mode = AmbientCoreTests.Mode.offline
                  AmbientCoreTests.Tag = Tag(a)
                }
                """
        )
        #expect(String(reflecting: InjectionContext()) == "InjectionContext(empty)")
    }

    @Test func printingCurrentInsideAScopeShowsWhatIsInjected() {
        let printed = withInjected(Tag("debug me")) { "\(InjectionContext.current)" }
        #expect(printed.contains("Tag: Tag(debug me)"))
    }

    @Test func aContextIsOneReference() {
        // Reads borrow the bound context straight from the runtime's task-local storage,
        // which relies on this layout (see BindingAccess.swift).
        #expect(MemoryLayout<InjectionContext>.size == MemoryLayout<UnsafeRawPointer>.size)
        #expect(MemoryLayout<InjectionContext>.alignment == MemoryLayout<UnsafeRawPointer>.alignment)
    }

    @Test func valuesAreKeyedByTheirStaticType() {
        class Base: AmbientValue, @unchecked Sendable {
            required init() {}
            static var defaultValue: Self { Self() }
            var name: String { "base" }
        }
        final class Derived: Base, @unchecked Sendable {
            override var name: String { "derived" }
        }
        let asBase: Base = Derived()
        #expect(Base.current.name == "base")
        withInjected(asBase) {
            #expect(Base.current.name == "derived")
            #expect(InjectionContext.current.injectedTypes.map { "\($0)" } == ["Base"])
        }
    }
}

@Suite("InjectionContext.injecting(contentsOf:)")
struct InjectingContentsOfTests {
    @Test func theOtherContextsValuesGoOnTopAndTheRestStays() {
        let base = InjectionContext().injecting(Tag("base"), Number(value: 1))
        let other = InjectionContext().injecting(Tag("outer")).injecting(Tag("inner"), Aligned(vector: .one))
        let merged = base.injecting(contentsOf: other)
        #expect(merged[Tag.self] == Tag("inner"), "the other context's innermost value wins")
        #expect(merged[Number.self] == Number(value: 1))
        #expect(merged[Aligned.self] == Aligned(vector: .one))
        #expect(base.injecting(contentsOf: InjectionContext())[Tag.self] == Tag("base"))
        #expect(InjectionContext().injecting(contentsOf: other)[Tag.self] == Tag("inner"))
    }
}
