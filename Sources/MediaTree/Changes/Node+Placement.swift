import MediaKit

extension Node {
    /// The folder node that lists this one, and the name it has there; nil for the root.
    ///
    /// The kernel caches a name in its parent (a dentry) apart from the node it names (an inode),
    /// so a change is told to it as both: this pair for the name, the node's number for the node.
    public var placement: (parent: Node, name: String)? {
        switch self {
        case .sourceFolder(let rel), .plainFile(let rel), .mediaFolder(let rel):
            guard !rel.isEmpty else { return nil }
            return (.sourceFolder(rel: RelPath.parent(rel)), RelPath.lastComponent(rel))
        case .original(let rel): return (.mediaFolder(rel: rel), RelPath.lastComponent(rel))
        case .info(let rel): return (.mediaFolder(rel: rel), "info.json")
        case .cover(let rel): return (.mediaFolder(rel: rel), "cover.png")
        case .chaptersFolder(let rel): return (.mediaFolder(rel: rel), "chapters")
        case .chapterImage(let rel, let name): return (.chaptersFolder(rel: rel), name)
        case .chaptersJSON(let rel): return (.chaptersFolder(rel: rel), ChapterFolder.jsonName)
        case .chaptersText(let rel): return (.chaptersFolder(rel: rel), ChapterFolder.textName)
        case .thumbsFolder(let rel): return (.mediaFolder(rel: rel), "thumbs")
        case .thumbnail(let rel, let name): return (.thumbsFolder(rel: rel), name)
        case .tracksFolder(let rel): return (.mediaFolder(rel: rel), "tracks")
        case .trackGroup(let rel, let group): return (.tracksFolder(rel: rel), group.rawValue)
        case .track(let rel, let group, let name): return (.trackGroup(rel: rel, group: group), name)
        }
    }
}

extension RelPath {
    /// The folder holding `rel` ("" for a name in the root).
    static func parent(_ rel: String) -> String {
        guard let slash = rel.lastIndex(of: "/") else { return "" }
        return String(rel[..<slash])
    }

    /// Whether `rel` is `ancestor` itself or lies under it.
    static func isWithin(_ rel: String, _ ancestor: String) -> Bool {
        ancestor.isEmpty || rel == ancestor || (rel.hasPrefix(ancestor) && rel.dropFirst(ancestor.count).first == "/")
    }
}
