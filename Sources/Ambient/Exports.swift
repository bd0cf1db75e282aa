// SPDX-License-Identifier: Apache-2.0

// `import Ambient` is the one import an app or library needs: the mechanism, the providers
// and propagation. Each layer is a module of its own (ARCHITECTURE.md, "Modules"), so the
// compiler holds the layering; a file that only makes its own types ambient can import
// `AmbientCore` alone.
@_exported import AmbientCore
@_exported import AmbientPropagation
@_exported import AmbientProviders
