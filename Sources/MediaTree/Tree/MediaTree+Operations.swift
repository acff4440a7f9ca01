import MediaKit

/// The operations, by inode number: each finds the node, brings it up to date with the source
/// (`resolved`) and hands the request to it.
extension MediaTree {
    /// The node named `name` in the folder `parent`, with its attributes (a track file's once its
    /// pass is done: the reply then comes from the tracks pool).
    /// Errors: `TreeError.notFound`, `.notDirectory`, `.stale`, `.io`.
    public func lookup(parent: UInt64, name: Name, reply: @escaping Reply<Attributes>) {
        do {
            guard name.isComponent else { throw TreeError.notFound }
            guard let folder = try resolved(parent) as? any FolderNode else { throw TreeError.notDirectory }
            guard let child = try folder.child(named: name, in: self) else { throw TreeError.notFound }
            child.attributes(in: self, reply: reply)
        } catch {
            reply(.failure(error))
        }
    }

    /// The attributes of the node numbered `inode`, from the source as it is now; for a number of
    /// a version that is gone (a made file, a file replaced by another), that version's, as the
    /// handles still open on it read it (`fstat` on them must not fail).
    /// Errors: `TreeError.notFound` where the source is gone or has changed kind.
    public func attributes(of inode: UInt64, reply: @escaping Reply<Attributes>) {
        do {
            let node: any TreeNode
            do {
                node = try resolved(inode)
            } catch TreeError.stale {
                guard let kept = inodes.node(for: inode) else { throw TreeError.notFound }
                node = kept
            }
            node.attributes(in: self) { result in
                // An older number of a replaced file (still open) keeps its own number.
                reply(result.map { var attributes = $0; attributes.inode = inode; return attributes })
            }
        } catch {
            reply(.failure(error))
        }
    }

    /// The entries of the folder numbered `inode`, each with its attributes (a track file's name
    /// and type only: `nameAndTypeOnly`). Makes no image and runs no track pass.
    /// Errors: `TreeError.notFound`, `.notDirectory`, `.io`.
    public func list(_ inode: UInt64, reply: @escaping Reply<[DirectoryEntry]>) {
        reply(Result {
            let removals = inodes.removals
            guard let folder = try resolved(inode) as? any FolderNode else { throw TreeError.notDirectory }
            guard let lasting = folder as? any LastingListing else { return try folder.list(in: self) }
            return try listed(lasting, numbered: inode, removals: removals)
        })
    }

    /// The listing of the folder numbered `inode` where it can be had at once, its source unchanged
    /// (one `stat`): kept from before (`KeptListings`), or made from memory alone (`ImmediateListing`).
    /// Nil where the request must wait its turn on a worker (a source folder, which reads the disk;
    /// a media folder or `chapters/` not listed before, which may read the file or the probe
    /// database; a changed source, which is probed again): `list` answers those.
    public func listAtOnce(_ inode: UInt64) -> Result<[DirectoryEntry], Error>? {
        let removals = inodes.removals
        guard let folder = inodes.node(for: inode) as? any LastingListing,
              sourceStat(of: folder.version)?.isSameVersion(as: folder.version.stat) == true else { return nil }
        if let kept = listings.listing(of: inode, stat: folder.version.stat, removals: removals) { return .success(kept) }
        return folder is any ImmediateListing ? Result { try listed(folder, numbered: inode, removals: removals) } : nil
    }

    /// `folder`'s listing, made, and kept where every entry has its attributes; `removals` is the
    /// table's count before it was made.
    private func listed(_ folder: any LastingListing, numbered inode: UInt64, removals: UInt64) throws -> [DirectoryEntry] {
        let entries = try folder.list(in: self)
        if !entries.contains(where: \.nameAndTypeOnly) {
            listings.keep(entries, of: inode, stat: folder.version.stat, removals: removals)
        }
        return entries
    }

    /// Opens the file numbered `inode` for reading: at once for the source's files and documents,
    /// from the generation pool once an image is made, from the tracks pool once a track's pass is done.
    /// Errors: `TreeError.isDirectory`, `.notFound`, `.stale` (a made file of a version that is
    /// gone: the kernel looks its name up again), `.io`.
    public func open(_ inode: UInt64, reply: @escaping Reply<any FileContent>) {
        do {
            guard let file = try resolved(inode) as? any FileNode else { throw TreeError.isDirectory }
            file.open(in: self, reply: reply)
        } catch {
            reply(.failure(error))
        }
    }

    /// The names of the extended attributes of the node numbered `inode`. Makes no image.
    public func extendedAttributeNames(of inode: UInt64, reply: @escaping Reply<[String]>) {
        reply(Result {
            let node = try resolved(inode)
            let own = try node.extendedAttributeNames(in: self)
            return node.key == inodes.node(for: InodeTable.rootNumber)?.key ? own + ["user.mediafs.stats"] : own
        })
    }

    /// The value of the extended attribute `name` of the node numbered `inode`. A thumbnail's
    /// `time` makes the image (on the generation pool, as a read would).
    /// Errors: `TreeError.notFound`, `.noAttribute`, `.io`.
    public func extendedAttribute(_ name: String, of inode: UInt64, reply: @escaping Reply<[UInt8]>) {
        do {
            let node = try resolved(inode)
            if inode == InodeTable.rootNumber && name == "user.mediafs.stats" {
                return reply(.success(Array(statisticsDocument().utf8)))
            }
            guard try node.extendedAttributeNames(in: self).contains(name) else { throw TreeError.noAttribute }
            node.extendedAttribute(name, in: self, reply: reply)
        } catch {
            reply(.failure(error))
        }
    }

    /// Whether `inode` names a node (it was given and not dropped since).
    public func isNumbered(_ inode: UInt64) -> Bool {
        inodes.holds(inode)
    }

    /// Drops the number `inode`, which the kernel no longer holds, and what the tree keeps by it.
    /// Seen again, the node is numbered again, with the same number (`InodeTable`).
    public func drop(_ inode: UInt64) {
        inodes.remove(inode)
        listings.forget(inode)
        openedVersions.forget([inode])
    }
}
