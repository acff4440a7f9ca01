import Glibc
import Synchronization
@testable import FuseBridge
@testable import MediaTree
import Testing

@Suite struct ErrnoMappingTests {
    @Test func treeErrorsMapToTheirErrno() {
        #expect(ErrnoMapping.code(for: TreeError.notFound) == ENOENT)
        #expect(ErrnoMapping.code(for: TreeError.notDirectory) == ENOTDIR)
        #expect(ErrnoMapping.code(for: TreeError.isDirectory) == EISDIR)
        #expect(ErrnoMapping.code(for: TreeError.readOnly) == EROFS)
        #expect(ErrnoMapping.code(for: TreeError.io(path: "/x", reason: "bad")) == EIO)
        #expect(ErrnoMapping.code(for: TreeError.noAttribute) == ENODATA)
        #expect(ErrnoMapping.code(for: TreeError.tooLarge) == ERANGE)
    }

    @Test func anythingElseIsEIO() {
        struct Surprise: Error {}
        #expect(ErrnoMapping.code(for: Surprise()) == EIO)
    }
}

@Suite struct MountOptionsTests {
    @Test func everyMountIsReadOnlyAndCleansUpAfterItself() {
        let options = MountOptions(fileSystemName: "/srv/media", extra: ["allow_other"])
        #expect(options.arguments == ["mediafs", "-o", "ro,default_permissions,auto_unmount,subtype=mediafs,fsname=/srv/media,allow_other"])
    }

    @Test func commasAndBackslashesInTheSourceAreEscaped() {
        #expect(MountOptions.escape(#"/a,b\c"#) == #"/a\,b\\c"#)
    }
}

@Suite struct LookupCountsTests {
    /// Numbers 1…100, and which of them were dropped.
    final class Owner: NumberOwner {
        let dropped = Mutex<[UInt64]>([])
        func isNumbered(_ inode: UInt64) -> Bool { inode <= 100 && !dropped.withLock { $0.contains(inode) } }
        func drop(_ inode: UInt64) { dropped.withLock { $0.append(inode) } }
    }

    @Test func forgetTakesOffWhatLookupsAddedAndTheLastOneDropsTheNumber() {
        let owner = Owner()
        let counts = LookupCounts(owner: owner)
        #expect(counts.add(5) && counts.add(5) && counts.add(6))
        counts.forget(5, count: 1)
        #expect(counts.count(of: 5) == 1)
        #expect(owner.dropped.withLock { $0 }.isEmpty)
        counts.forget(5, count: 1)
        #expect(counts.count(of: 5) == 0)
        counts.forget(6, count: 10)
        #expect(counts.referenced == 0)
        #expect(owner.dropped.withLock { $0 } == [5, 6])
        // A forget of a number the kernel was never given drops nothing.
        counts.forget(7, count: 1)
        #expect(owner.dropped.withLock { $0 } == [5, 6])
    }

    @Test func aDroppedNumberIsNeverCountedAgain() {
        let owner = Owner()
        let counts = LookupCounts(owner: owner)
        #expect(counts.add(8))
        counts.forget(8, count: 1)
        #expect(!counts.add(8))
        #expect(!counts.add(500))
        #expect(counts.referenced == 0)
    }
}

@Suite struct NumberCountsTests {
    /// Random sets and removals (a small range, so numbers share probe runs and the table grows),
    /// checked after each against a dictionary.
    @Test func agreesWithADictionaryThroughGrowthAndRemovals() {
        var table = NumberCounts()
        var model: [UInt64: UInt64] = [:]
        var random = SystemRandomNumberGenerator()
        for step in 0..<60_000 {
            let number = UInt64.random(in: 1...3_000, using: &random)
            switch step % 5 {
            case 0, 1:
                let value = UInt64.random(in: 1...4, using: &random)
                table.set(number, to: value)
                model[number] = value
            case 2:
                #expect(table.increment(number) == (model[number] != nil))
                if let held = model[number] { model[number] = held + 1 }
            default:
                table.set(number, to: 0)
                model[number] = nil
            }
            if step % 1_000 == 0 || step > 59_000 {
                #expect(table.count == model.count)
                for probe in UInt64(1)...3_000 where table[probe] != model[probe] {
                    Issue.record("step \(step): \(probe) counted \(String(describing: table[probe])), expected \(String(describing: model[probe]))")
                    return
                }
            }
        }
    }

    @Test func holdsHashedNumbersOfAWholeLibrary() {
        var table = NumberCounts()
        // Numbers as the inode table gives them: 63-bit hashes.
        let numbers = (0..<200_000).map { UInt64($0) &* 0x9E37_79B9_7F4A_7C15 & InodeTable.numberMask | 2 }
        for number in numbers { table.set(number, to: 1) }
        #expect(numbers.allSatisfy { table.increment($0) })
        #expect(table.count == Set(numbers).count)
        for number in numbers.prefix(100_000) { table.set(number, to: 0) }
        #expect(numbers.prefix(100_000).allSatisfy { table[$0] == nil })
        #expect(numbers.dropFirst(100_000).allSatisfy { table[$0] == 2 })
    }
}

@Suite struct AttributesStatTests {
    @Test func statCarriesTypeModeSizeAndTimes() {
        let time = timespec(tv_sec: 1_700_000_000, tv_nsec: 123)
        let file = Attributes(inode: 42, type: .regular, permissions: 0o444, size: 1_000, links: 1, uid: 7, gid: 8,
                              accessTime: time, modificationTime: time, changeTime: time)
        let st = file.stat
        #expect(st.st_ino == 42 && st.st_mode == S_IFREG | 0o444 && st.st_size == 1_000)
        #expect(st.st_blocks == 2 && st.st_uid == 7 && st.st_gid == 8)
        #expect(st.st_mtim.tv_sec == 1_700_000_000 && st.st_mtim.tv_nsec == 123)
        var folder = file
        folder.type = .directory
        #expect(folder.stat.st_mode & S_IFMT == S_IFDIR)
    }
}

@Suite struct ReplyBuffersTests {
    @Test func aBufferIsUsedAgainAndGrowsToTheSizeAsked() {
        let buffers = ReplyBuffers()
        let first = buffers.withBuffer(size: 32_768) { buffer -> UnsafeMutableRawPointer? in
            #expect(buffer.count == 32_768)
            return buffer.baseAddress
        }
        #expect(buffers.withBuffer(size: 4_096) { $0.baseAddress } == first)
        buffers.withBuffer(size: 65_536) { buffer in
            #expect(buffer.count == 65_536)
            buffer.storeBytes(of: 0xFF, toByteOffset: 65_535, as: UInt8.self)
        }
        // Two at once: two buffers.
        buffers.withBuffer(size: 100) { outer in
            buffers.withBuffer(size: 100) { inner in #expect(inner.baseAddress != outer.baseAddress) }
        }
    }
}
