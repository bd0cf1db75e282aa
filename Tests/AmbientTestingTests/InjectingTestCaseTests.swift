// SPDX-License-Identifier: Apache-2.0

import Ambient
import AmbientTesting
import Foundation
import XCTest

final class InjectingTestCaseTests: InjectingTestCase {
    override var injections: InjectionContext {
        InjectionContext().injecting(Clock.fixed(Date(timeIntervalSince1970: 7)), Defaults.inMemory(["k": "v"]))
    }

    override var strictModeAllowing: [any Injectable.Type]? {
        [Logger.self]
    }

    func testValuesAreInjectedAroundEachTestMethod() {
        XCTAssertEqual(Clock.current.now, Date(timeIntervalSince1970: 7))
        XCTAssertEqual(Defaults.current.string(forKey: "k"), "v")
        _ = Logger.current  // allowed by strict mode: no failure
    }

    func testEachMethodGetsFreshFakes() {
        // Writes from other methods never show: `injections` is rebuilt per method.
        XCTAssertNil(Defaults.current.string(forKey: "written"))
        Defaults.current.set("yes", forKey: "written")
    }

    func testWrittenAgain() {
        XCTAssertNil(Defaults.current.string(forKey: "written"))
        Defaults.current.set("yes", forKey: "written")
    }

    func testOneTestCanNestItsOwnScope() {
        withInjected(Clock.fixed(Date(timeIntervalSince1970: 99))) {
            XCTAssertEqual(Clock.current.now, Date(timeIntervalSince1970: 99))
        }
        XCTAssertEqual(Clock.current.now, Date(timeIntervalSince1970: 7))
    }

    func testAsyncTestMethodsSeeTheValues() async {
        XCTAssertEqual(Clock.current.now, Date(timeIntervalSince1970: 7))
        async let child = Clock.current.now
        let fromChild = await child
        XCTAssertEqual(fromChild, Date(timeIntervalSince1970: 7))
    }
}

final class PlainXCTestCaseTests: XCTestCase {
    func testPlainWithInjectedWorksInXCTest() {
        withInjected(Clock.fixed(Date(timeIntervalSince1970: 1))) {
            XCTAssertEqual(Clock.current.now, Date(timeIntervalSince1970: 1))
        }
    }
}
