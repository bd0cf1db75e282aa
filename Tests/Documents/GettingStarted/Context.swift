// SPDX-License-Identifier: Apache-2.0

import Foundation

// Why: the article's nesting block uses the instant its previous block's test named.

let start = Date(timeIntervalSince1970: 1_700_000_000)
