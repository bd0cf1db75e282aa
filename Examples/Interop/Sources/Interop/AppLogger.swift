// SPDX-License-Identifier: Apache-2.0

import Ambient

// doc: names-typealias
// Or decide once per module: a declaration in your own module wins over every import.
typealias AppLogger = Ambient.Logger

func logSync() {
    AppLogger.current.info("sync started")
}
// doc-end
