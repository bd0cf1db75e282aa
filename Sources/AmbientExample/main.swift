// ambient-demo: legacy code that reads a global, made testable by one conformance.
//
// `Preferences` stands in for a singleton such as `UserDefaults.standard`: the code below
// reads `Preferences.current` deep inside, with no parameter threaded through. The demo
// runs the same code live and then inside injection scopes, and checks what each saw.
import Ambient
import Dispatch
import Foundation

/// A user-made ambient value: conform, supply the live default, done.
struct Preferences: AmbientValue {
    var values: [String: String]
    static let standard = Preferences(values: ["defaultColour": "Blue"])
    static var defaultValue: Preferences { standard }

    func string(forKey key: String) -> String? { values[key] }
}

// MARK: - Legacy code: unchanged except `Preferences.current`.

func makeWidget() -> String {
    (Preferences.current.string(forKey: "defaultColour") ?? "") + "Widget"
}

/// Does its work on a private queue, as legacy code does.
final class WidgetFactory: Sendable {
    private let queue = DispatchQueue(label: "WidgetFactory")

    func makeWidgetOnMyQueue(completion: @escaping @Sendable (String) -> Void) {
        queue.async { completion(makeWidget()) }
    }

    /// Waits for `makeWidgetOnMyQueue` (a semaphore orders the write before the read).
    func makeWidgetAndWait() -> String {
        let done = DispatchSemaphore(value: 0)
        let result = Box()
        makeWidgetOnMyQueue { widget in
            result.value = widget
            done.signal()
        }
        done.wait()
        return result.value
    }
}

// MARK: - The demo

var failures = 0
var checks = 0
@MainActor func check(_ label: String, _ actual: String, _ expected: String) {
    let ok = actual == expected
    checks += 1
    if !ok { failures += 1 }
    print("\(ok ? "ok  " : "FAIL") \(label.padding(toLength: 58, withPad: " ", startingAt: 0)) \(actual)")
}

let factory = WidgetFactory()

check("live", makeWidget(), "BlueWidget")

withInjected(Preferences(values: ["defaultColour": "Red"])) {
    check("withInjected", makeWidget(), "RedWidget")
    withInjected(Preferences(values: ["defaultColour": "Green"])) {
        check("nested withInjected (innermost wins)", makeWidget(), "GreenWidget")
    }
    check("after the nested scope (restored)", makeWidget(), "RedWidget")

    // A private queue does not inherit the scope...
    check("legacy queue, not carried", factory.makeWidgetAndWait(), "BlueWidget")
    // ...unless the completion handler is bound to it.
    let done = DispatchSemaphore(value: 0)
    let carried = Box()
    factory.makeWidgetOnMyQueue(completion: InjectionContext.current.bind { _ in
        carried.value = makeWidget()  // runs on the factory's queue, in the bound context
        done.signal()
    })
    done.wait()
    check("legacy queue, completion bound with bind", carried.value, "RedWidget")
}

withInjectedProcessWide(Preferences(values: ["defaultColour": "Purple"])) {
    check("legacy queue inside withInjectedProcessWide", factory.makeWidgetAndWait(), "PurpleWidget")
}

check("live again", makeWidget(), "BlueWidget")

print(failures == 0 ? "all \(checks) checks passed" : "\(failures) of \(checks) checks failed")
exit(failures == 0 ? 0 : 1)

/// A string handed back from the factory's queue.
final class Box: @unchecked Sendable {
    // @unchecked: written on the queue before a semaphore signal, read after the wait.
    var value = ""
}
