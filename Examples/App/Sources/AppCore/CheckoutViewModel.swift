// SPDX-License-Identifier: Apache-2.0

import Ambient
import Foundation
import LegacyKit

/// A view model as legacy app code has it: it reads singletons, hops to the main queue,
/// starts timers and observes notifications. Each singleton read is `.current`.
final class CheckoutViewModel {
    private(set) var title = ""
    private(set) var status = "idle"
    private(set) var ticks = 0
    private var observer: (any NSObjectProtocol)?

    /// Reads every kind of ambient value from main-actor code.
    func load() {
        let flags = FeatureFlags.current
        title = flags.expressCheckout ? "Pay now" : "Checkout"
        if Defaults.current.bool(forKey: "returningCustomer") { title += " again" }
        Logger.current.info("checkout loaded")
        AnalyticsClient.current.track("checkout.load")
        if cachedAvatar(for: "me") == nil { status = "no avatar" }
    }

    /// Awaits a delay on the ambient clock, then updates main-actor state.
    func confirm() async throws {
        status = "confirming"
        try await Clock.current.sleep(for: .seconds(2))
        status = "confirmed at \(Clock.current.now.timeIntervalSince1970)"
        AnalyticsClient.current.track("checkout.confirm")
    }

    /// Hands work to the main queue: the bound closure runs with the caller's values.
    func refreshLater(then done: @escaping @MainActor () -> Void) {
        let context = InjectionContext.current
        DispatchQueue.main.async(
            execute: context.bindMainActor {
                self.load()
                done()
            })
    }

    /// Observes a notification delivered on the main queue.
    func observeSync(on center: NotificationCenter) {
        let context = InjectionContext.current
        observer = center.addObserver(
            forName: .checkoutDidSync, object: nil, queue: .main,
            using: context.bindMainActor { _ in
                self.status = "synced"
                AnalyticsClient.current.track("checkout.sync")
            })
    }

    /// A repeating timer on the main run loop.
    func startTicking() -> Timer {
        let context = InjectionContext.current
        return Timer.scheduledTimer(
            withTimeInterval: 0.001, repeats: true,
            block: context.bindMainActor { timer in
                self.ticks += 1
                AnalyticsClient.current.track("tick")
                if self.ticks == 3 { timer.invalidate() }
            })
    }
}

extension Notification.Name {
    static let checkoutDidSync = Notification.Name("checkoutDidSync")
}
