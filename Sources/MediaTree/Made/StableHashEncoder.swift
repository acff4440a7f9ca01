/// An `Encoder` that writes a value's fields straight into a `StableHasher`: every stored field of
/// a `Codable` recipe (and of the MediaKit requests it holds) is part of its key without anyone
/// listing it, as with JSON, but written as bytes (a number's own bits, a text's UTF-8 and a 0),
/// so that no formatting of numbers as text decides the key that names a file on disk.
///
/// Every key is written by its name, every value after a mark of what it is and how deeply it is
/// nested, in the order the value encodes them (its declaration's, for synthesised `Codable`): two
/// different values never write the same bytes.
struct StableHashEncoder: Encoder {
    /// Where the bytes go; shared by the containers of one value.
    final class Sink {
        var hasher: StableHasher
        init(_ hasher: StableHasher) { self.hasher = hasher }
    }

    /// What follows a mark.
    enum Mark: UInt8 {
        case keyed = 1, unkeyed, none, value
    }

    let sink: Sink
    /// How many containers this one is inside.
    let depth: Int
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Writes `value` into `hasher`.
    static func write<Value: Encodable>(_ value: Value, into hasher: inout StableHasher) {
        let sink = Sink(hasher)
        // Nothing here throws: a hasher takes every value.
        try? value.encode(to: StableHashEncoder(sink: sink, depth: 0))
        hasher = sink.hasher
    }

    func mark(_ mark: Mark) {
        sink.hasher.add(CollectionOfOne(mark.rawValue))
        sink.hasher.add(depth)
    }

    func key(_ key: some CodingKey) { sink.hasher.add(key.stringValue) }

    /// The encoder of what a container of this one holds.
    var inner: StableHashEncoder { StableHashEncoder(sink: sink, depth: depth + 1) }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        mark(.keyed)
        return KeyedEncodingContainer(Keyed<Key>(encoder: inner))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        mark(.unkeyed)
        return Unkeyed(encoder: inner)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single(encoder: self) }

    /// Writes one value: a number's bits, a text's bytes; anything else as it encodes itself.
    func write(_ value: some Encodable) {
        switch value {
        case let text as String:
            mark(.value)
            sink.hasher.add(text)
        case let flag as Bool:
            mark(.value)
            sink.hasher.add(flag)
        case let number as Double:
            mark(.value)
            sink.hasher.add(number)
        case let number as Float:
            mark(.value)
            sink.hasher.add(Double(number))
        case let number as any FixedWidthInteger:
            mark(.value)
            sink.hasher.add(Int64(truncatingIfNeeded: number))
        default:
            try? value.encode(to: self)
        }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: StableHashEncoder
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil(forKey key: Key) {
            encoder.key(key)
            encoder.mark(.none)
        }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) {
            encoder.key(key)
            encoder.write(value)
        }

        mutating func nestedContainer<Nested: CodingKey>(keyedBy type: Nested.Type, forKey key: Key) -> KeyedEncodingContainer<Nested> {
            encoder.key(key)
            return encoder.container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            encoder.key(key)
            return encoder.unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder { encoder }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            encoder.key(key)
            return encoder
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let encoder: StableHashEncoder
        var codingPath: [any CodingKey] { [] }
        private(set) var count = 0

        init(encoder: StableHashEncoder) { self.encoder = encoder }

        mutating func encodeNil() {
            count += 1
            encoder.mark(.none)
        }

        mutating func encode<T: Encodable>(_ value: T) {
            count += 1
            encoder.write(value)
        }

        mutating func nestedContainer<Nested: CodingKey>(keyedBy type: Nested.Type) -> KeyedEncodingContainer<Nested> {
            count += 1
            return encoder.container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            count += 1
            return encoder.unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder { encoder }
    }

    struct Single: SingleValueEncodingContainer {
        let encoder: StableHashEncoder
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil() { encoder.mark(.none) }
        mutating func encode<T: Encodable>(_ value: T) { encoder.write(value) }
    }
}
