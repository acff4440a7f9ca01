import MediaKit

/// `thumbs/`: any frame of the video as an image, made when read. Lists a periodic set of names
/// and the quarter boundaries (`ThumbnailListing`), in the mount's image format; any valid name
/// resolves, listed or not. Only for a file with a video stream to take frames from.
final class ThumbsFolder: ImmediateListing, NamedSubfolder {
    let spot: VersionSpot
    /// The stream thumbnails are taken from, and the seconds a time may reach.
    let stream: MediaInfo.Stream
    let duration: Double

    static let madeKinds: [MadeKind] = [.thumbnails]
    static let name = MediaFolderNames.thumbs

    init?(spot: VersionSpot, tree: MediaTree) {
        guard let stream = Thumbnails.stream(of: spot.version.info) else { return nil }
        self.spot = spot
        self.stream = stream
        duration = Thumbnails.duration(of: stream, info: spot.version.info)
    }

    /// Every listed name is in the default box and within the duration, so all are one size,
    /// worked out once; the names are those of every video of its shape (`thumbnailNames`); no
    /// name is parsed and no node made (each entry's key is hashed from the
    /// folder's `NodeKey.Family`).
    func list(in tree: MediaTree) throws -> [DirectoryEntry] {
        let format = tree.settings.imageFormat
        guard let size = ThumbnailGeometry.outputSize(of: stream, box: tree.settings.thumbs.box) else {
            return ScannerMarker.entries(in: self, tree: tree)
        }
        let family = NodeKey.Family(kind: ThumbnailFile.kind, path: version.path)
        let source = version.info.pictureSource(of: stream)
        var attributes = tree.madeFileAttributes(number: 0, stat: version.stat)
        attributes.size = Int64(ImageEncoder.encodedSize(format: format, width: size.width, height: size.height, source: source))
        let shape = ThumbnailListing.Shape(duration: duration, interval: tree.settings.thumbs.interval, format: format)
        let names = tree.thumbnailNames.value(for: shape) ?? {
            let names = ThumbnailListing.names(of: shape)
            tree.thumbnailNames.insert(names, cost: 1, for: shape)
            return names
        }()
        return ScannerMarker.entries(in: self, tree: tree) + names.map { name in
            let hash = family.hash(name: name, stamp: version.stamp)
            attributes.inode = NodeKey.number(forHash: hash)
            return DirectoryEntry(name: name, attributes: attributes, keyHash: hash)
        }
    }

    /// Parses `name` once; the file carries what it asks for.
    func child(named name: Name, in tree: MediaTree) throws -> (any TreeNode)? {
        if let marker = ScannerMarker.file(named: name, in: self) { return marker }
        TreeStatistics.count(tree.statistics.thumbnailNameParses)
        guard let text = name.string, let parsed = ThumbnailName.parse(text),
              let request = Thumbnails.request(for: parsed, stream: stream, duration: duration, settings: tree.settings,
                                               source: version.info.pictureSource(of: stream))
        else { return nil }
        return ThumbnailFile(folder: self, name: name, request: request)
    }
}
