@testable import MediaTree
import Testing

/// The keys of made things written field by field (`StableHashEncoder`): the same value, the same
/// hash in every process; any field changed, another; values of other shapes never meet.
@Suite struct StableHashEncoderTests {
    struct Inner: Codable, Hashable { var numbers: [Double]; var name: String? }
    struct Outer: Codable, Hashable { var count: Int; var inner: Inner; var flags: [[Bool]] }

    static func hash<Value: Encodable>(_ value: Value) -> UInt64 {
        StableHasher.hash { StableHashEncoder.write(value, into: &$0) }
    }

    static let value = Outer(count: 3, inner: Inner(numbers: [0.1, 2.5], name: "a"), flags: [[true], [false, true]])

    @Test func theSameValueGivesTheSameHash() {
        #expect(Self.hash(Self.value) == Self.hash(Outer(count: 3, inner: Inner(numbers: [0.1, 2.5], name: "a"),
                                                         flags: [[true], [false, true]])))
    }

    @Test func everyFieldCounts() {
        var values = [Self.value]
        values.append({ var v = Self.value; v.count = 4; return v }())
        values.append({ var v = Self.value; v.inner.numbers[0] = 0.1000000001; return v }())
        values.append({ var v = Self.value; v.inner.name = nil; return v }())
        values.append({ var v = Self.value; v.inner.name = ""; return v }())
        values.append({ var v = Self.value; v.flags = [[true, false], [true]]; return v }())
        values.append({ var v = Self.value; v.flags = [[true, false, true]]; return v }())
        values.append({ var v = Self.value; v.flags = [[true], [false], [true]]; return v }())
        #expect(Set(values.map(Self.hash)).count == values.count)
    }

    /// Nested lists that hold the same values in other groupings are other values.
    @Test func groupingCounts() {
        #expect(Self.hash([[1], [2]]) != Self.hash([[1, 2]]))
        #expect(Self.hash([[1, 2], [3]]) != Self.hash([[1], [2, 3]]))
        #expect(Self.hash(["ab", "c"]) != Self.hash(["a", "bc"]))
    }

    /// Written as bits, not text: the key of a recipe is the same whatever formats numbers.
    @Test func numbersAreTheirBits() {
        #expect(Self.hash(0.1) != Self.hash(0.1.nextUp))
        #expect(Self.hash(Double.nan) == Self.hash(Double.nan))
        #expect(Self.hash(-0.0) != Self.hash(0.0))
    }
}
