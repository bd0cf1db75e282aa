// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation

// Why: URLs round-trip through a store as UserDefaults keeps them.

/// URLs in a defaults store, as `UserDefaults` keeps them: `set(_ url: URL?, forKey:)` on Apple
/// platforms writes the URL as the root object of an `NSKeyedArchiver` archive (`Data`), and
/// `url(forKey:)` reads such an archive, or a path string as a file URL with `~` expanded.
enum URLArchive {
    /// The keyed archive of `url` as an `NSURL` (a binary property list with the archiver's
    /// `$archiver`, `$objects` and `$top`; the URL's `NS.base` and `NS.relative`). A file URL
    /// is archived absolute: Apple's `UserDefaults` may abbreviate the home folder to `~`, and
    /// `url(from:)` expands one where it finds it.
    static func data(for url: URL) -> Data {
        do {
            return try NSKeyedArchiver.archivedData(withRootObject: url as NSURL, requiringSecureCoding: true)
        } catch {
            // An NSURL always archives; were it ever to fail, storing nothing would lose the
            // value silently, so fail loudly instead.
            preconditionFailure("Defaults: NSKeyedArchiver could not archive \(url): \(error)")
        }
    }

    /// The URL in a keyed archive of an `NSURL`, with a `~` at the start of a file URL's
    /// path expanded; `nil` for data that is not one (unarchived with secure coding: only
    /// an `NSURL` is decoded, whatever the data claims).
    static func url(from data: Data) -> URL? {
        guard let unarchiver = try? NSKeyedUnarchiver(forReadingFrom: data) else { return nil }
        unarchiver.requiresSecureCoding = true
        // Data that is a property list but no URL archive fails here, never stops the process
        // (the default policy raises, which Linux's Foundation turns into a crash; its own
        // `UserDefaults.url(forKey:)` crashes on such data).
        unarchiver.decodingFailurePolicy = .setErrorAndReturn
        defer { unarchiver.finishDecoding() }
        guard let url = unarchiver.decodeObject(of: NSURL.self, forKey: NSKeyedArchiveRootObjectKey) else { return nil }
        // The relative part as archived (bridging to `URL` resolves it against its base first).
        if url.isFileURL, let relative = url.relativePath, relative.hasPrefix("~") {
            return URL(fileURLWithPath: NSString(string: relative).expandingTildeInPath)
        }
        return url as URL
    }

    /// A path string read as `UserDefaults.url(forKey:)` reads it: a file URL, `~` expanded
    /// (an empty path is the current folder, as there). A string that names a scheme
    /// (`"https://example.com"`) is that URL: Ambient wrote URLs as strings before it wrote
    /// archives, and those must read back.
    static func url(fromString text: String) -> URL {
        if let url = URL(string: text), let scheme = url.scheme, scheme.count > 1, text.contains("://") {
            return url
        }
        return URL(fileURLWithPath: NSString(string: text).expandingTildeInPath)
    }
}
