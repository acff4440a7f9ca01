import Glibc
import MediaTree

extension Attributes {
    /// The `struct stat` the kernel gets for these attributes.
    var stat: Glibc.stat {
        var st = Glibc.stat()
        st.st_ino = ino_t(inode)
        st.st_mode = (type == .directory ? S_IFDIR : S_IFREG) | mode_t(permissions)
        st.st_nlink = nlink_t(links)
        st.st_uid = uid
        st.st_gid = gid
        st.st_size = off_t(size)
        // A reader's buffer follows st_blksize: stdio reads a file 128 KiB at a time. A folder keeps
        // the page size: glibc's opendir sizes its getdents buffer by it, and the kernel (6.16 on)
        // allocates and maps that many pages for every readdir request, where a folder's entries
        // fit in one page or a few.
        st.st_blksize = type == .directory ? 4096 : 131_072
        st.st_blocks = blkcnt_t((size + 511) / 512)
        st.st_atim = accessTime
        st.st_mtim = modificationTime
        st.st_ctim = changeTime
        return st
    }
}

