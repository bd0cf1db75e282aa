// SPDX-License-Identifier: Apache-2.0

import Ambient
import Foundation

// Why: the code under test that the article's tests name and leave out.

let noon = Date(timeIntervalSince1970: 86_400 + 43_200)

func makeWidget() -> String { (Defaults.current.string(forKey: "defaultColour") ?? "") + "Widget" }

func nextReminderId() -> Int {
    let id = Defaults.current.integer(forKey: "lastReminderId") + 1
    Defaults.current.set(id, forKey: "lastReminderId")
    return id
}

func isOverdue(_ due: Date) -> Bool { due < Clock.current.now }

final class PaymentGateway: Sendable {
    static let shared = PaymentGateway()
    func charge(_ cents: Int) -> Bool { cents > 0 }
}
