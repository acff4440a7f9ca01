@testable import MountLifecycle
import Testing

/// The one reader of /proc/self/mountinfo.
@Suite struct KernelMountsTests {
    @Test func linesAreReadWithTheirOptionalFieldsAndEscapes() {
        let text = """
            22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw
            97 22 0:52 / /tmp/a\\040b rw,nosuid,nodev,relatime shared:50 master:2 - fuse.mediafs /src/with\\134back\\040space ro,user_id=0
            98 22 0:53 / /mnt/no-optional ro - fuse.mediafs  ro
            garbage
            """
        let entries = KernelMounts.entries(in: text)
        #expect(entries.count == 3)
        #expect(entries[0] == KernelMounts.Entry(device: "8:1", mountPoint: "/", options: "rw,relatime",
                                                 fileSystemType: "ext4", source: "/dev/sda1"))
        #expect(entries[1].mountPoint == "/tmp/a b" && entries[1].source == "/src/with\\back space")
        #expect(entries[1].fileSystemType == "fuse.mediafs" && entries[1].minor == 52)
        #expect(entries[2].source == "" && entries[2].fileSystemType == "fuse.mediafs" && entries[2].options == "ro")
    }

    @Test func theRootOfThisNamespaceIsMounted() {
        #expect(KernelMounts.isMountPoint("/"))
        #expect(KernelMounts.all().contains { $0.fileSystemType == "proc" && $0.mountPoint == "/proc" })
    }
}
