import Foundation
import Glibc
import MediaKit
@testable import FuseBridge
@testable import MediaTree
import Synchronization
import Testing

/// The node table: one entry per number, counted lookups, and numbers that stay what the keys ask
/// for, apart from where two keys ask for one.
@Suite struct NodeTableTests {
    /// A listing whose entries have the given key hashes, in a media folder at `movie.mkv`.
    private func listing(_ hashes: [UInt64], nameAndTypeOnly: Set<Int> = []) -> KeptListing {
        let time = timespec()
        let entries = hashes.enumerated().map { index, hash in
            DirectoryEntry(name: Name("entry-\(index)"),
                           attributes: Attributes(inode: NodeKey.number(forHash: hash), type: .regular, permissions: 0o444,
                                                  size: 1, links: 1, uid: 0, gid: 0, accessTime: time,
                                                  modificationTime: time, changeTime: time),
                           keyHash: hash, nameAndTypeOnly: nameAndTypeOnly.contains(index))
        }
        return KeptListing(folder: 7, folderKey: NodeKey(kind: "thumbs", path: "movie.mkv"), listing: Listing(entries: entries))
    }

    private func table() -> NodeTable {
        NodeTable(root: MediaTree(sourceRoot: "/nonexistent", media: LocalMediaService(), logger: .init(label: "test")).root)
    }

    @Test func forgetTakesOffWhatWasCountedAndTheLastOneRemovesTheEntry() {
        let table = table()
        let kept = listing([0x1234, 0x5678])
        #expect(table.enter(kept, index: 0) == 0x1234 && table.enter(kept, index: 0) == 0x1234)
        #expect(table.enter(kept, index: 1) == 0x5678)
        table.forget(0x1234, count: 1)
        #expect(table.lookups(of: 0x1234) == 1)
        table.forget(0x1234, count: 1)
        #expect(table.entry(0x1234) == nil)
        table.forget(0x5678, count: 10)
        #expect(table.counts.numbers == 1, "the root alone")
        // The root stays, and a number the kernel was never given changes nothing.
        table.forget(NodeKey.rootNumber, count: 5)
        table.forget(99, count: 1)
        #expect(table.entry(NodeKey.rootNumber) != nil && table.counts.numbers == 1)
    }

    /// A readdirplus reply's entries entered together get the numbers they would get one by one,
    /// past a number another key holds, each counted once; an entry known by name and type only is
    /// neither numbered nor counted.
    @Test func entriesOfOneReplyEnteredTogetherAreNumberedAsOneByOne() {
        let table = table()
        let kept = listing([0x10, 0x20, 0x30, 0x10 | 1 << 63, 0x50], nameAndTypeOnly: [2])
        #expect(table.enter(kept, index: 0) == 0x10)
        var numbers = [UInt64](repeating: 99, count: 4)
        numbers.withUnsafeMutableBufferPointer { table.enter(kept, positions: 1..<5, into: $0) }
        #expect(numbers == [0x20, 0, 0x11, 0x50])
        #expect(table.entry(0x30) == nil, "the name-and-type-only entry is not in the table")
        numbers.withUnsafeMutableBufferPointer { table.enter(kept, positions: 1..<5, into: $0) }
        #expect(numbers == [0x20, 0, 0x11, 0x50], "given again, the same numbers")
        #expect([0x10, 0x20, 0x11, 0x50].map { table.lookups(of: $0) } == [1, 2, 2, 2])
    }

    /// Two keys asking for one number: the second goes to the next free one, and stays findable
    /// there after the first is forgotten (a tombstone keeps the run).
    @Test func keysAskingForOneNumberEachGetTheirOwn() {
        let table = table()
        let first: UInt64 = 0x40
        let second: UInt64 = 0x40 | 1 << 63  // the same 63 bits
        let kept = listing([first, second])
        #expect(table.enter(kept, index: 0) == 0x40)
        #expect(table.enter(kept, index: 1) == 0x41)
        table.forget(0x40, count: 1)
        #expect(table.entry(0x40) == nil)
        #expect(table.enter(kept, index: 1) == 0x41, "still found past the removed one")
        #expect(table.lookups(of: 0x41) == 2)
        #expect(table.enter(kept, index: 0) == 0x40, "the first takes the free number again")
    }

    /// Random entering and forgetting of keys in a small space of numbers (so that runs of taken
    /// numbers form), against a model: a held key keeps its number, two held keys never share one.
    @Test func agreesWithAModelThroughCollisionsAndForgetting() {
        let table = table()
        var generator = SystemRandomNumberGenerator()
        // 300 keys over 100 wanted numbers (the top bit differs, or the low bits collide).
        let hashes: [UInt64] = (0..<300).map { (index: Int) -> UInt64 in
            let low = UInt64(100 + index % 100)
            let high = UInt64(index / 100) << 62
            return low | high
        }
        let kept = listing(hashes)
        var held: [UInt64: (number: UInt64, lookups: UInt64)] = [:]
        for _ in 0..<20_000 {
            let index = Int.random(in: 0..<hashes.count, using: &generator)
            let hash = hashes[index]
            if let entry = held[hash], Bool.random(using: &generator) {
                let count = UInt64.random(in: 1...entry.lookups, using: &generator)
                table.forget(entry.number, count: count)
                held[hash] = entry.lookups == count ? nil : (entry.number, entry.lookups - count)
            } else {
                let number = table.enter(kept, index: index)
                if let entry = held[hash] { #expect(number == entry.number, "a held key keeps its number") }
                held[hash] = (number, (held[hash]?.lookups ?? 0) + 1)
            }
        }
        let numbers = held.values.map(\.number)
        #expect(Set(numbers).count == numbers.count, "no two held keys share a number")
        #expect(table.counts.numbers == held.count + 1)
        for (hash, entry) in held {
            #expect(table.entry(entry.number)?.keyHash(at: entry.number) == hash && table.lookups(of: entry.number) == entry.lookups)
        }
    }

    /// An entry gives its key's hash though it keeps only what its number does not say of it: at its
    /// own number with either top bit, past a number another key took first, at the two lowest
    /// numbers a key is moved up to, and the root's.
    @Test func anEntryGivesItsKeysHashAtEveryKindOfNumber() {
        let tree = MediaTree(sourceRoot: "/nonexistent", media: LocalMediaService(), logger: .init(label: "test"))
        let table = NodeTable(root: tree.root)
        let hashes: [UInt64] = [0x40, 0x40 | 1 << 63, 0x80 | 1 << 63, 0, 1 | 1 << 63, 2]
        let kept = listing(hashes)
        let numbers = hashes.indices.map { table.enter(kept, index: $0) }
        #expect(numbers == [0x40, 0x41, 0x80, 2, 3, 4])
        for (hash, number) in zip(hashes, numbers) {
            #expect(table.entry(number)?.keyHash(at: number) == hash, "number \(number)")
        }
        #expect(table.entry(NodeKey.rootNumber)?.keyHash(at: NodeKey.rootNumber) == tree.root.key.stableHash)
        #expect(table.existingNumber(for: tree.root.key) == NodeKey.rootNumber)
        // A number forgotten inside a run of taken ones stays a tombstone, which no key's hash is
        // taken for: not the key of that very number either.
        table.forget(0x40, count: 1)
        table.state.withLock { state in
            #expect(state.slots[0x40]?.isTombstone == true && state.slots[0x40]?.keyHash(at: 0x40) == 0)
        }
    }

    // MARK: Generations

    /// A key gets the same number and generation again, in this mount and the next; two keys at one
    /// number (whichever came first) differ in generation; the root's is the kernel's, 0.
    @Test func aKeyAtItsOwnNumberGetsTheSameGenerationInEveryMount() {
        let first: UInt64 = 0x40
        let second: UInt64 = 0x40 | 1 << 63  // the same 63 bits
        let kept = listing([first, second])
        let table = table()
        #expect(table.enter(kept, index: 0) == 0x40)
        table.forget(0x40, count: 1)
        // The other key now finds the number free.
        #expect(table.enter(kept, index: 1) == 0x40)
        let remounted = self.table()
        #expect(remounted.enter(kept, index: 0) == 0x40)
        let generations = [first, second].map { InodeGeneration.of(number: 0x40, keyHash: $0) }
        #expect(generations == [1, 2])
        #expect(InodeGeneration.of(number: NodeKey.rootNumber, keyHash: 0) == 0)
        // The two lowest numbers a key asks for are moved up onto 2 and 3, whose own keys differ.
        #expect(Set([0, 2, 1 << 63, 2 | 1 << 63].map { InodeGeneration.of(number: 2, keyHash: $0) }).count == 4)
    }

    /// A number freed by forget and given to another key (placed past its own number, or at it)
    /// comes with another generation; the key placed past its number keeps its pair while held.
    @Test func aNumberGivenToAnotherKeyComesWithAnotherGeneration() {
        let table = table()
        let home: UInt64 = 0x40
        let moved: UInt64 = 0x40 | 1 << 63
        let next: UInt64 = 0x41
        let kept = listing([home, moved, next])
        #expect(table.enter(kept, index: 0) == 0x40 && table.enter(kept, index: 1) == 0x41)
        let movedGeneration = InodeGeneration.of(number: 0x41, keyHash: moved)
        #expect(movedGeneration > 4 && movedGeneration <= UInt64(UInt32.max))
        table.forget(0x41, count: 1)
        #expect(table.enter(kept, index: 2) == 0x41, "the key whose own number it is")
        #expect(InodeGeneration.of(number: 0x41, keyHash: next) != movedGeneration)
    }

    /// Random entering and forgetting over colliding keys: no number and generation is ever given
    /// to two keys, each fits in the kernel's 32 bits, and a key given the same number again gets
    /// the same generation.
    @Test func noNumberAndGenerationIsGivenToTwoKeys() {
        let table = table()
        var generator = SystemRandomNumberGenerator()
        let hashes: [UInt64] = (0..<300).map { UInt64(100 + $0 % 100) | UInt64($0 / 100) << 62 }
        let kept = listing(hashes)
        var given: [UInt64: [UInt64: UInt64]] = [:]  // number → generation → key hash
        var held: [UInt64: (number: UInt64, lookups: UInt64)] = [:]
        for _ in 0..<20_000 {
            let index = Int.random(in: 0..<hashes.count, using: &generator)
            let hash = hashes[index]
            if let entry = held[hash], Bool.random(using: &generator) {
                table.forget(entry.number, count: entry.lookups)
                held[hash] = nil
            } else {
                let number = table.enter(kept, index: index)
                let generation = InodeGeneration.of(number: number, keyHash: hash)
                #expect(generation > 0 && generation <= UInt64(UInt32.max))
                let owner = given[number, default: [:]][generation, default: hash]
                #expect(owner == hash, "number \(number) generation \(generation) given to two keys")
                given[number, default: [:]][generation] = hash
                held[hash] = (number, (held[hash]?.lookups ?? 0) + 1)
            }
        }
    }

    // MARK: Statistics

    /// Only the root's statistics count the table, which walks it whole under its lock.
    @Test func onlyTheStatisticsWalkTheTable() throws {
        let source = FileManager.default.temporaryDirectory.appendingPathComponent("mediafs-walks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: source) }
        let tree = MediaTree(sourceRoot: source.path, media: LocalMediaService(), logger: .init(label: "test"))
        defer { tree.close() }
        let numbered = NumberedTree(tree: tree)
        let answers = Mutex<[Result<[UInt8], Error>]>([])
        for name in ["user.mediafs.duration", "user.xdg.comment", MediaTree.statisticsAttribute] {
            numbered.extendedAttribute(name, of: NodeKey.rootNumber) { result in answers.withLock { $0.append(result) } }
            #expect(numbered.table.walks.load(ordering: .relaxed) == (name == MediaTree.statisticsAttribute ? 1 : 0), "\(name)")
        }
        let statistics = try #require(try answers.withLock { $0 }.last?.get())
        #expect(String(decoding: statistics, as: UTF8.self).contains("\"inodes\""))
    }
}
