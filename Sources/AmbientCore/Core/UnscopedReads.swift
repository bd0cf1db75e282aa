// SPDX-License-Identifier: Apache-2.0

// Why: a read on a thread that no scope reached, while a strict test that injected that type
// runs, is a read the test's scope did not follow (a callback from a thread the code does not
// own, a system API handed a system queue): strict mode says so rather than read live unseen.

/// The types that running strict tests injected, each test with where to report a read of one
/// of them that found no scope at all: nothing bound on the reading thread or task, no captured
/// context. AmbientTesting registers a strict test's types for as long as the test runs; such a
/// read is reported to every test registered for its type (once per test: the innermost of a
/// test's registrations), with how many there were: tests running in parallel that injected
/// the same type cannot tell whose work the read was.
package enum UnscopedReads {
    /// One test's registration.
    package final class Registration: Sendable {
        let owner: String
        let types: Set<ObjectIdentifier>
        let report: @Sendable (any Injectable.Type, Int) -> Void

        init(
            owner: String, types: Set<ObjectIdentifier>, report: @escaping @Sendable (any Injectable.Type, Int) -> Void
        ) {
            self.owner = owner
            self.types = types
            self.report = report
        }
    }

    private static let registrations = Locked<[Registration]>([])

    /// Reports, until ``unregister(_:)``, each read of one of `types` that finds no scope, by
    /// calling `report` on the reading thread with the type and how many tests had injected it
    /// then (more than one: the read cannot be told apart as one test's). `owner` names the
    /// test: of its registrations the last one made reports.
    package static func register(
        _ types: [any Injectable.Type], owner: String,
        report: @escaping @Sendable (_ type: any Injectable.Type, _ testsInjectingIt: Int) -> Void
    ) -> Registration {
        let registration = Registration(owner: owner, types: Set(types.map { ObjectIdentifier($0) }), report: report)
        registrations.withLock { $0.append(registration) }
        return registration
    }

    /// Stops `registration`'s reports.
    package static func unregister(_ registration: Registration) {
        registrations.withLock { $0.removeAll { $0 === registration } }
    }

    /// A read of `type` found no scope: reports it to each test registered for `type`. Only
    /// strict mode's reads that miss come here.
    static func reportRead(of type: any Injectable.Type) {
        let id = ObjectIdentifier(type)
        let targets = registrations.withLock { registrations in
            var latest: [String: Registration] = [:]
            for registration in registrations where registration.types.contains(id) {
                latest[registration.owner] = registration
            }
            return Array(latest.values)
        }
        for target in targets { target.report(type, targets.count) }
    }
}
