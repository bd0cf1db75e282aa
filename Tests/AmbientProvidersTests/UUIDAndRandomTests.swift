// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Foundation
import Testing

@Suite("UUIDGenerator and RandomSource")
struct UUIDAndRandomTests {
    @Test func theLiveGeneratorMakesFreshUUIDs() {
        let ids = Set((0..<100).map { _ in UUIDGenerator.current() })
        #expect(ids.count == 100)
    }

    @Test func incrementingCountsUpFromZero() {
        withInjected(UUIDGenerator.incrementing) {
            #expect(UUIDGenerator.current().uuidString == "00000000-0000-0000-0000-000000000000")
            #expect(UUIDGenerator.current().uuidString == "00000000-0000-0000-0000-000000000001")
            for _ in 2..<255 { _ = UUIDGenerator.current() }
            #expect(UUIDGenerator.current().uuidString == "00000000-0000-0000-0000-0000000000FF")
        }
        // A new use starts a new sequence.
        #expect(UUIDGenerator.incrementing().uuidString == "00000000-0000-0000-0000-000000000000")
    }

    @Test func incrementingIsSafeFromManyThreads() {
        let generator = UUIDGenerator.incrementing
        let seen = Locked<Set<UUID>>([])
        DispatchQueue.concurrentPerform(iterations: 1_000) { _ in
            let id = generator()
            seen.withLock { _ = $0.insert(id) }
        }
        #expect(seen.get().count == 1_000)
        #expect(generator().uuidString == "00000000-0000-0000-0000-0000000003E8")
    }

    @Test func constantAndCustomGenerators() {
        let fixed = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        withInjected(UUIDGenerator.constant(fixed)) {
            #expect(UUIDGenerator.current() == fixed)
            #expect(UUIDGenerator.current() == fixed)
        }
        let custom = UUIDGenerator { fixed }
        #expect(custom() == fixed)
    }

    @Test func seededSplitMix64MatchesTheReferenceSequence() {
        var random = RandomSource.seeded(0)
        #expect(random.next() == 0xE220_A839_7B1D_CDAF)
        #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(random.next() == 0x06C4_5D18_8009_454F)
    }

    @Test func seededSourcesAreDeterministicAndUsableAsGenerators() {
        func rolls() -> [Int] {
            var random = RandomSource.current
            return (0..<10).map { _ in Int.random(in: 1...6, using: &random) }
        }
        let first = withInjected(RandomSource.seeded(42)) { rolls() }
        let second = withInjected(RandomSource.seeded(42)) { rolls() }
        let other = withInjected(RandomSource.seeded(43)) { rolls() }
        #expect(first == second)
        #expect(first != other)
        #expect(first.allSatisfy { (1...6).contains($0) })
    }

    @Test func copiesShareOneStream() {
        withInjected(RandomSource.seeded(7)) {
            var a = RandomSource.current
            var b = RandomSource.current
            let x = a.next()
            let y = b.next()
            var reference = RandomSource.seeded(7)
            #expect([x, y] == [reference.next(), reference.next()])
        }
    }

    @Test func theLiveSourceIsRandom() {
        var random = RandomSource.current
        let values = Set((0..<100).map { _ in random.next() })
        #expect(values.count == 100)
        #expect(RandomSource.current.description == "RandomSource.live")
    }
}
