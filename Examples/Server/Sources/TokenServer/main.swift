// Runs the token service: `swift run --package-path Examples/Server TokenServer [port]`.
// Callers may fix its clock and tenant flags through `ambient-*` headers (an
// AmbientInstrument extracts them); try
//   curl -X POST -H 'x-tenant: enterprise' -H 'ambient-clock: fixed:0.0' localhost:8080/tokens
import Ambient
import Hummingbird
import Instrumentation
import TokenService

InstrumentationSystem.bootstrap(AmbientInstrument(carrying: .tokenService))
let port = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 8080
let app = buildApplication(port: port)
try await app.runService()
