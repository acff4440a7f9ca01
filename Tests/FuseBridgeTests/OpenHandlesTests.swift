import CFuse
@testable import FuseBridge
import Testing

/// Open handles by number: an object is found by the number it was stored under, as the type it
/// was stored as, until released; a released number finds nothing, even once its slot holds another.
@Suite struct OpenHandlesTests {
    private final class Folder: Sendable {}
    private final class File: Sendable {}

    @Test func aReleasedNumberFindsNothingAfterItsSlotIsUsedAgain() {
        let handles = OpenHandles()
        var (first, second, third) = (fuse_file_info(), fuse_file_info(), fuse_file_info())
        let folder = Folder()
        handles.store(folder, in: &first)
        handles.store(File(), in: &second)
        #expect(first.fh != 0 && second.fh != 0 && first.fh != second.fh)
        #expect(handles.borrow(Folder.self, from: &first) === folder)
        #expect(handles.borrow(File.self, from: &first) == nil, "another type finds nothing")
        handles.release(from: &first)
        #expect(handles.borrow(Folder.self, from: &first) == nil)
        handles.store(Folder(), in: &third)  // the released slot, used again
        #expect(third.fh & 0xFFFF_FFFF == first.fh & 0xFFFF_FFFF && third.fh != first.fh)
        #expect(handles.borrow(Folder.self, from: &first) == nil, "the old number finds nothing")
        #expect(handles.borrow(Folder.self, from: &third) != nil && handles.borrow(File.self, from: &second) != nil)
        handles.release(from: &first)  // released twice: nothing happens to the slot's new object
        #expect(handles.borrow(Folder.self, from: &third) != nil)
        var none = fuse_file_info()
        #expect(handles.borrow(Folder.self, from: &none) == nil && handles.borrow(Folder.self, from: nil) == nil)
    }
}
