@testable import FuseBridge
import Testing

/// The node table's slots: an open-addressing table that must agree with a dictionary whatever
/// its probe runs and growth do, at a size a library's listing gives it.
@Suite struct NumberSlotsTests {
    /// Random sets, changes and removals over a small range (numbers share probe runs, runs wrap
    /// past the last slot, the table grows), checked against a dictionary as it goes.
    @Test func agreesWithADictionaryThroughGrowthAndRemovals() {
        var table = NumberSlots(vacant: "")
        var model: [UInt64: String] = [:]
        var random = SystemRandomNumberGenerator()
        for step in 0..<60_000 {
            let number = UInt64.random(in: 1...3_000, using: &random)
            switch step % 5 {
            case 0, 1:
                let value = "v\(step)"
                table.set(number, to: value)
                model[number] = value
            case 2:
                let changed = table.modify(number) { value in
                    value += "+"
                    return value
                }
                #expect(changed == model[number].map { $0 + "+" })
                if let held = model[number] { model[number] = held + "+" }
            default:
                table.set(number, to: nil)
                model[number] = nil
            }
            if step % 1_000 == 0 || step > 59_000 {
                #expect(table.count == model.count)
                for probe in UInt64(1)...3_000 where table[probe] != model[probe] {
                    Issue.record("step \(step): \(probe) holds \(String(describing: table[probe])), expected \(String(describing: model[probe]))")
                    return
                }
            }
        }
        var seen: [UInt64: String] = [:]
        table.updateEach { number, value in seen[number] = value }
        #expect(seen == model)
    }

    /// Numbers as the node table gives them (63-bit hashes), as many as a library's listing: all
    /// found, none invented, the table no more than 1.8 slots per number, and each emptied.
    @Test func holdsTheNumbersOfALibraryInLittleMoreThanTheirSlots() {
        var table = NumberSlots(vacant: 0)
        var random = SystemRandomNumberGenerator()
        let numbers = Set((0..<500_000).map { _ in UInt64.random(in: 2...(1 << 63 - 1), using: &random) })
        for number in numbers { table.set(number, to: Int(truncatingIfNeeded: number)) }
        #expect(table.count == numbers.count)
        #expect(Double(table.capacity) <= Double(numbers.count) / 0.85 * 1.5 + 1)
        #expect(numbers.allSatisfy { table[$0] == Int(truncatingIfNeeded: $0) })
        #expect((0..<1_000).allSatisfy { _ in
            let number = UInt64.random(in: 2...(1 << 63 - 1), using: &random)
            return numbers.contains(number) || table[number] == nil
        })
        for number in numbers { table.set(number, to: nil) }
        #expect(table.count == 0 && numbers.allSatisfy { table[$0] == nil })
    }

    /// What a listed entry costs the table: the entry is 16 bytes, its slot with the number 24.
    @Test func aListedEntryCostsTwentyFourBytesASlot() {
        #expect(MemoryLayout<NodeTable.Entry>.stride == 16)
        #expect(MemoryLayout<Slot<NodeTable.Entry>>.stride == 24)
    }
}
