// SPDX-License-Identifier: Apache-2.0

import Ambient
import Foundation

/// A value the plugin injects.
struct PluginSetting: AmbientValue, Equatable {
    var name: String
    static var defaultValue: PluginSetting { PluginSetting(name: "live") }
}

/// Runs scopes (the thread's spare storage, a thread-local), a process-wide scope (the
/// hazard slots, a thread-local) and reads on the calling thread and on new threads, and
/// returns how many checks failed. Called by the host through `dlsym`.
@_cdecl("ambient_plugin_run_checks")
public func ambientPluginRunChecks() -> Int32 {
    var failures: Int32 = 0
    func check(_ condition: Bool) { if !condition { failures += 1 } }
    for round in 0..<100 {
        withInjected(PluginSetting(name: "scope \(round)")) {
            check(PluginSetting.current.name == "scope \(round)")
        }
    }
    check(PluginSetting.current == PluginSetting.defaultValue)
    let fromThreads = Names()
    withInjectedProcessWide(PluginSetting(name: "process-wide")) {
        let done = DispatchGroup()
        for _ in 0..<4 {
            done.enter()
            Thread {
                let name = PluginSetting.current.name
                withInjected(PluginSetting(name: "thread")) { _ = PluginSetting.current }
                fromThreads.append(name)
                done.leave()
            }.start()
        }
        done.wait()
    }
    check(fromThreads.all == Array(repeating: "process-wide", count: 4))
    check(PluginSetting.current == PluginSetting.defaultValue)
    return failures
}

/// Names collected from several threads.
final class Names: @unchecked Sendable {
    // @unchecked: `names` is only touched with `lock` held.
    private let lock = NSLock()
    private var names: [String] = []

    func append(_ name: String) { lock.withLock { names.append(name) } }
    var all: [String] { lock.withLock { names } }
}
