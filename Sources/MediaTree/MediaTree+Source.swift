import Dispatch
import Glibc
import MediaKit
import SystemPackage

extension MediaTree {
    /// Whether a source entry is a folder, a media folder or a plain file. Probes media-named files.
    func classify(rel: String, stat: SourceStat) -> Node {
        if stat.isDirectory { return .sourceFolder(rel: rel) }
        guard MediaNames.isCandidate(RelPath.lastComponent(rel)), stat.identity.size > 0,
              let info = try? probe(rel: rel, stat: stat), info.isBrowsable else {
            return .plainFile(rel: rel)
        }
        return .mediaFolder(rel: rel)
    }

    /// The probe of a source file, made once per version of the file.
    func probe(rel: String, stat: SourceStat) throws -> MediaInfo {
        let path = absolute(rel)
        return try probes.value(for: stat.identity) {
            switch probeDatabase?.kept(stat.identity) {
            case .info(let info):
                TreeStatistics.count(statistics.probesFromDatabase)
                return info
            case .failure(let failure):
                TreeStatistics.count(statistics.probesFromDatabase)
                logger.debug("shown as a plain file: cannot probe \(path) (kept): \(failure)")
                throw failure
            case nil:
                break
            }
            do {
                TreeStatistics.count(statistics.probes)
                let info = try media.probe(path: FilePath(path), size: stat.identity.size)
                probeDatabase?.store(.info(info), for: stat.identity)
                return info
            } catch {
                logger.notice("shown as a plain file: cannot probe \(path): \(error)")
                if let failure = error as? MediaError, ProbeDatabase.isLasting(failure) {
                    probeDatabase?.store(.failure(failure), for: stat.identity)
                }
                throw error
            }
        }
    }

    /// The stat of the source entry at `rel`, or nil where there is nothing to show.
    func sourceStat(_ rel: String) -> SourceStat? {
        SourceStat.read(absolute(rel), root: resolvedRoot)
    }

    /// The source stat behind `node`, provided the node is still what the source shows.
    /// - Throws: `TreeError.notFound` where the source is gone or has changed kind.
    func validStat(of node: Node) throws -> SourceStat {
        guard let stat = sourceStat(node.rel) else { throw TreeError.notFound }
        let current: Node
        switch node {
        case .sourceFolder:
            guard stat.isDirectory else { throw TreeError.notFound }
            return stat
        case .plainFile(let rel):
            current = classify(rel: rel, stat: stat)
        case .mediaFolder(let rel):
            guard classify(rel: rel, stat: stat) == node else { throw TreeError.notFound }
            return stat
        case .original(let rel), .info(let rel), .cover(let rel), .chaptersFolder(let rel), .chapterImage(let rel, _),
             .chaptersJSON(let rel), .chaptersText(let rel), .thumbsFolder(let rel), .thumbnail(let rel, _),
             .tracksFolder(let rel), .trackGroup(let rel, _), .track(let rel, _, _):
            guard classify(rel: rel, stat: stat) == .mediaFolder(rel: rel),
                  exists(node, info: try probe(rel: rel, stat: stat), stat: stat) else { throw TreeError.notFound }
            return stat
        }
        guard current == node else { throw TreeError.notFound }
        return stat
    }

    /// Lists a source folder, sorted by name. Entries are stat'ed and classified in parallel, so
    /// media-named files not probed yet are probed several at a time.
    func listSourceFolder(rel: String) throws -> [DirectoryEntry] {
        let path = absolute(rel)
        let names: [String]
        do {
            names = try DirectoryReader.entries(of: path).map(\.name).sorted()
        } catch {
            throw TreeError.io(path: path, reason: error.description)
        }

        let listed = UnsafeMutableBufferPointer<Attributes?>.allocate(capacity: names.count)
        listed.initialize(repeating: nil)
        defer { listed.deallocate() }
        let box = UncheckedBox(listed)
        DispatchQueue.concurrentPerform(iterations: names.count) { i in
            let childRel = RelPath.join(rel, names[i])
            guard let stat = sourceStat(childRel) else { return }
            // Folders, plain files and media folders: making their attributes cannot fail.
            box.value[i] = try? attributes(of: classify(rel: childRel, stat: stat), stat: stat)
        }
        return names.indices.compactMap { i in
            listed[i].map { DirectoryEntry(name: names[i], attributes: $0) }
        }
    }

    /// `info.json` for the media file at `rel`.
    func infoDocument(rel: String, stat: SourceStat) throws -> [UInt8] {
        let name = RelPath.lastComponent(rel)
        let info = try probe(rel: rel, stat: stat)
        return try infoDocuments.value(for: InfoKey(identity: stat.identity, name: name)) {
            try infoTemplates.value(for: stat.identity) { InfoDocument.template(info) }.document(fileName: name)
        }
    }
}

/// Lets `concurrentPerform` write disjoint slots of one buffer.
private struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
