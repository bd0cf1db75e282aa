// SPDX-License-Identifier: Apache-2.0

import Ambient
import Foundation

// Why: the app code the article's tests exercise and leave out.

/// Sleeps a minute on the ambient clock, then says when it woke.
func waitForNextReminder() async throws -> Date {
    try await Clock.current.sleep(for: .seconds(60))
    return Clock.current.now
}

func makeWidget() -> String { (Defaults.current.string(forKey: "defaultColour") ?? "") + "Widget" }
