// SPDX-License-Identifier: Apache-2.0

import Foundation

// Why: the test clock and carrying threads each mark the running thread with an object of
// theirs; one thread-specific slot, written once.

/// One object per thread, unretained: whoever sets it keeps it alive while it is set.
package struct ThreadSlot<Object: AnyObject>: Sendable {
    private let key: pthread_key_t

    /// A new slot; `owner` names it in the trap if the system has no key left.
    package init(_ owner: StaticString) {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "\(owner): pthread_key_create failed (\(status))")
        self.key = key
    }

    /// The running thread's object, if any.
    package var current: Unmanaged<Object>? {
        get { pthread_getspecific(key).map { Unmanaged.fromOpaque($0) } }
        nonmutating set { pthread_setspecific(key, newValue?.toOpaque()) }
    }
}
