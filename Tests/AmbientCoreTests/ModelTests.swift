// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation
import Testing

/// Used only by the model test (it injects them process-wide).
struct ModelA: AmbientValue {
    var value: Int
    static var defaultValue: ModelA { ModelA(value: -1) }
}

struct ModelB: AmbientValue {
    var value: Int
    static var defaultValue: ModelB { ModelB(value: -2) }
}

/// Random programs of nested `withInjected`, `InjectionContext.current` captures, `run`
/// of captured contexts and process-wide scopes, executed for real and against a tiny
/// reference model; every read must agree. Seeds are fixed; a failure names its seed.
@Suite("Model-based", .serialized)
struct ModelTests {
    /// The model: what a task/thread binding holds, and the process-wide layers.
    struct Model {
        var binding: [Int: Int] = [:]  // type index → value
        /// The process-wide level the current binding was made inside (0: none).
        var bindingLevel = 0
        var processWide: [Int: Int] = [:]
        /// The active process-wide levels, outermost first, and the next level's id.
        var levels: [Int] = []
        var nextLevel = 1
        var captured: [(binding: [Int: Int], level: Int)] = []

        static func defaultValue(_ type: Int) -> Int { type == 0 ? -1 : -2 }

        /// A read on the program's own thread, which is inside every level it entered.
        func expected(_ type: Int) -> Int {
            binding[type] ?? processWide[type] ?? Self.defaultValue(type)
        }

        /// A read on another thread running captured context `index` (`nil`: no context):
        /// it sees the process-wide values only if it carries no binding, or its context
        /// was made inside a level that is still active.
        func expectedElsewhere(_ type: Int, running index: Int?) -> Int {
            guard let index else { return processWide[type] ?? Self.defaultValue(type) }
            let (binding, level) = captured[index]
            let bindsNothing = binding.isEmpty && level == 0
            let visible = bindsNothing || (level != 0 && levels.contains(level))
            return binding[type] ?? (visible ? processWide[type] : nil) ?? Self.defaultValue(type)
        }
    }

    indirect enum Step {
        case read(Int)
        case inject(Int, Int, [Step])
        case injectBoth(Int, Int, [Step])
        case capture
        case run(Int, [Step])
        case processWide(Int, Int, [Step])
        /// A read on a new thread, bare or running a captured context.
        case readElsewhere(Int, context: Int?)
    }

    static func program(_ random: inout SplitMix, depth: Int) -> [Step] {
        (0..<Int.random(in: 1...4, using: &random)).map { _ in
            let kind = depth > 4 ? 0 : Int.random(in: 0..<8, using: &random)
            let type = Int.random(in: 0..<2, using: &random)
            let value = Int.random(in: 0..<1_000, using: &random)
            switch kind {
            case 1, 2: return .inject(type, value, program(&random, depth: depth + 1))
            case 3: return .injectBoth(value, value + 1, program(&random, depth: depth + 1))
            case 4: return .capture
            case 5: return .run(Int.random(in: 0..<8, using: &random), program(&random, depth: depth + 1))
            case 6: return .processWide(type, value, program(&random, depth: depth + 1))
            case 7:
                let context = Bool.random(using: &random) ? Int.random(in: 0..<8, using: &random) : nil
                return .readElsewhere(type, context: context)
            default: return .read(type)
            }
        }
    }

    /// Runs `steps` for real while updating `model`; returns the reads that disagreed.
    static func execute(
        _ steps: [Step], _ model: inout Model, contexts: inout [InjectionContext], processWideDepth: Int
    ) -> [String] {
        var mismatches: [String] = []
        for step in steps {
            switch step {
            case .read(let type):
                let actual = type == 0 ? ModelA.current.value : ModelB.current.value
                if actual != model.expected(type) {
                    mismatches.append("read \(type): got \(actual), model says \(model.expected(type))")
                }
            case .inject(let type, let value, let body):
                let saved = model.binding
                model.binding[type] = value
                let run = { (model: inout Model, contexts: inout [InjectionContext]) in
                    mismatches += execute(body, &model, contexts: &contexts, processWideDepth: processWideDepth)
                }
                if type == 0 {
                    withInjected(ModelA(value: value)) { run(&model, &contexts) }
                } else {
                    withInjected(ModelB(value: value)) { run(&model, &contexts) }
                }
                model.binding = saved
            case .injectBoth(let a, let b, let body):
                let saved = model.binding
                model.binding[0] = a
                model.binding[1] = b
                withInjected(ModelA(value: a), ModelB(value: b)) {
                    mismatches += execute(body, &model, contexts: &contexts, processWideDepth: processWideDepth)
                }
                model.binding = saved
            case .capture:
                contexts.append(InjectionContext.current)
                model.captured.append((model.binding, model.bindingLevel))
            case .run(let index, let body):
                guard !contexts.isEmpty else { continue }
                let slot = index % contexts.count
                let saved = (model.binding, model.bindingLevel)
                (model.binding, model.bindingLevel) = model.captured[slot]
                contexts[slot].run {
                    mismatches += execute(body, &model, contexts: &contexts, processWideDepth: processWideDepth)
                }
                (model.binding, model.bindingLevel) = saved
            case .readElsewhere(let type, let index):
                let slot = contexts.isEmpty ? nil : index.map { $0 % contexts.count }
                let context = slot.map { contexts[$0] }
                let actual = onNewThread {
                    let read = { type == 0 ? ModelA.current.value : ModelB.current.value }
                    return context.map { $0.run(read) } ?? read()
                }
                let expected = model.expectedElsewhere(type, running: slot)
                if actual != expected {
                    mismatches.append(
                        "read \(type) elsewhere (context \(slot.map(String.init) ?? "none")): got \(actual), model says \(expected)"
                    )
                }
            case .processWide(let type, let value, let body):
                guard processWideDepth < 2 else { continue }
                let saved = (model.processWide, model.bindingLevel)
                model.processWide[type] = value
                model.levels.append(model.nextLevel)
                model.bindingLevel = model.nextLevel
                model.nextLevel += 1
                let inner = { (model: inout Model, contexts: inout [InjectionContext]) in
                    mismatches += execute(body, &model, contexts: &contexts, processWideDepth: processWideDepth + 1)
                }
                if type == 0 {
                    withInjectedProcessWide(ModelA(value: value)) { inner(&model, &contexts) }
                } else {
                    withInjectedProcessWide(ModelB(value: value)) { inner(&model, &contexts) }
                }
                (model.processWide, model.bindingLevel) = saved
                model.levels.removeLast()
            }
        }
        return mismatches
    }

    /// The values a program injects process-wide for each type: all a reader that carries
    /// no binding may ever see, besides the default.
    static func processWideValues(_ steps: [Step], into values: inout [Int: Set<Int>]) {
        for step in steps {
            switch step {
            case .processWide(let type, let value, let body):
                values[type, default: []].insert(value)
                processWideValues(body, into: &values)
            case .inject(_, _, let body), .injectBoth(_, _, let body), .run(_, let body):
                processWideValues(body, into: &values)
            case .read, .capture, .readElsewhere:
                break
            }
        }
    }

    /// Its cases run one at a time (`.serialized`), beside the rest of a parallel run: each
    /// starts two reader threads of its own, and 300 cases started at once would be 600
    /// readers waiting, all awake, for their programs' turns on the process-wide scope.
    @Test(.serialized, arguments: 0..<300)
    func randomProgramsAgreeWithTheModel(seed: Int) async {
        // On a thread of its own: programs use the blocking process-wide scope, which
        // refuses to run inside a task.
        var random = SplitMix(state: UInt64(seed))
        let steps = Self.program(&random, depth: 0)
        var collected: [Int: Set<Int>] = [:]
        Self.processWideValues(steps, into: &collected)
        let allowed = collected
        // Two threads outside every scope read all along while the program enters and
        // leaves its process-wide scopes: each read is a value some scope injected, or the
        // default, never anything torn or freed (run under the sanitizers in CI).
        let strays = Locked<[String]>([])
        let readers = BackgroundThreads(count: 2, pause: .microseconds(200)) {
            for type in 0..<2 {
                let value = type == 0 ? ModelA.current.value : ModelB.current.value
                if value != Model.defaultValue(type), allowed[type]?.contains(value) != true {
                    strays.withLock { $0.append("type \(type) read \(value)") }
                }
            }
        }
        let mismatches = await onOwnThread {
            var model = Model()
            var contexts: [InjectionContext] = []
            return Self.execute(steps, &model, contexts: &contexts, processWideDepth: 0)
        }
        readers.stop()
        #expect(mismatches.isEmpty, "seed \(seed): \(mismatches.prefix(3))")
        #expect(strays.get().isEmpty, "seed \(seed): \(strays.get().prefix(3))")
    }
}
