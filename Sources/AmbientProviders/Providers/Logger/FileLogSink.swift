// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation

#if canImport(os)
import os
#endif

// Why: a log file (standard error by default), written whole entries at a time.

/// Writes each entry's ``Logger/Entry/description`` as one line to a file handle —
/// standard error unless told otherwise — and, for standard error on Apple platforms, to
/// the unified logging system too.
public struct FileLogSink: LogSink, CustomStringConvertible {
    private let handle: FileHandle
    /// Whether it writes to standard error (where ``Logger/live`` writes).
    let isStandardError: Bool

    /// A sink writing to standard error.
    public init() {
        self.init(.standardError)
    }

    /// A sink writing to `handle` (a file, a pipe, …).
    public init(_ handle: FileHandle) {
        self.handle = handle
        self.isStandardError = handle.fileDescriptor == FileHandle.standardError.fileDescriptor
    }

    /// Writes one line.
    public func write(_ entry: Logger.Entry) {
        handle.write(Data((entry.description + "\n").utf8))
        #if canImport(os)
        if isStandardError {
            os.Logger(subsystem: "Ambient", category: entry.fileID).log(
                level: entry.level.osLogType, "\(entry.message, privacy: .public)")
        }
        #endif
    }

    /// `stderr`, or the file descriptor written to.
    public var description: String {
        isStandardError ? "stderr" : "fd \(handle.fileDescriptor)"
    }
}

#if canImport(os)
extension Logger.Level {
    var osLogType: OSLogType {
        switch self {
        case .trace, .debug: .debug
        case .info, .notice: .info
        case .warning: .default
        case .error: .error
        case .critical: .fault
        }
    }
}
#endif
