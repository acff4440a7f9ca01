import Dispatch
import Glibc
import Synchronization
@testable import FuseBridge
@testable import MediaKit
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

    /// Each failure of the media layer with its own errno where it has one: a name that cannot
    /// exist, a bound passed, a version gone, a source refused; EIO for what the bytes do not give.
    @Test func mediaFailuresMapCaseByCase() {
        func code(_ failure: MediaError) -> Int32 { ErrnoMapping.code(for: TreeError.media(path: "/x", failure: failure)) }
        #expect(code(.noVideoStream(index: 2)) == ENOENT)
        #expect(code(.timedOut(seconds: 20)) == ETIMEDOUT)
        #expect(code(.sourceChanged(reason: "cut")) == ESTALE)
        #expect(code(.io(function: "open", code: EACCES)) == EACCES)
        #expect(code(.io(function: "open", code: ENOENT)) == ENOENT)
        #expect(code(.io(function: "open", code: EMFILE)) == EIO)
        #expect(code(.unreadable(ReadFault(offset: 4096, kind: .failed(errno: EIO)))) == EIO)
        #expect(code(.noFrame(time: 3, reason: "cut short")) == EIO)
        #expect(code(.damaged(reason: "broken")) == EIO)
        #expect(ErrnoMapping.isLogged(TreeError.media(path: "/x", failure: .timedOut(seconds: 20))))
        #expect(!ErrnoMapping.isLogged(TreeError.notFound))
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

/// A request answered twice sends its first answer only, and names both in one log line.
@Suite struct RequestAnswerTests {
    @Test func theFirstAnswerIsSentAndASecondDroppedAndReportedOnce() {
        // Values taken out first: `#expect` cannot look into a noncopyable value.
        let answer = RequestAnswer()
        let before = answer.isAnswered
        let first = answer.take(.entry(inode: 42))
        let after = answer.isAnswered
        let second = answer.take(.error(ENOENT))
        let third = answer.take(.bytes(count: 3))
        #expect(!before && first == .send && after)
        #expect(second == .dropped(report: "a request answered twice: with an entry for inode 42, then with error \(ENOENT) (No such file or directory) (dropped)"))
        #expect(third == .dropped(report: nil), "logged once per request")
    }

    @Test func answersFromThreadsAtOnceSendOne() {
        let answer = RequestAnswer()
        let sent = Atomic(0)
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            if answer.take(.bytes(count: index)) == .send { sent.add(1, ordering: .relaxed) }
        }
        #expect(sent.load(ordering: .relaxed) == 1)
    }
}
