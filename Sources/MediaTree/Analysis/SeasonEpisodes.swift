import MediaKit

/// The episodes of a season, whose intro and credits are found by comparing them: videos named as
/// media servers name episodes (`Show S01E02`, `Show 1x02`), or any video in a season's folder
/// (`Season 1`, `S01`, `Staffel 2`, …), two or more in one folder.
enum SeasonEpisodes {
    /// Whether `name` names an episode: `S01E02` (any case, a space, dot, dash or underscore
    /// between the parts allowed) or `1x02`, as Jellyfin, Plex and Kodi read them.
    static func isEpisodeName(_ name: Name) -> Bool {
        guard let text = name.string else { return false }
        return text.firstMatch(of: #/(?i)(?:^|[^a-z0-9])s\d{1,3}[ ._-]?e\d{1,4}(?:[^0-9]|$)/#) != nil
            || text.firstMatch(of: #/(?:^|[^0-9])\d{1,2}x\d{2,3}(?:[^0-9]|$)/#) != nil
    }

    /// Whether `name` names a season's folder: `Season 1`, `Series 2`, `Staffel 3`, `Saison 4`,
    /// `Temporada 5`, `Stagione 6`, `S01`, `Specials`.
    static func isSeasonFolder(_ name: Name) -> Bool {
        guard let text = name.string else { return false }
        return text.wholeMatch(of: #/(?i)(?:season|series|staffel|saison|temporada|stagione)[ ._-]*\d{1,4}/#) != nil
            || text.wholeMatch(of: #/(?i)s\d{1,3}|specials/#) != nil
    }

    /// The episodes beside the media file at `path` (itself among them), in name order, with their
    /// stats as they are now; nil where it is no episode, or the only one of its folder.
    static func episodes(beside path: SourcePath, in tree: MediaTree) -> [(path: SourcePath, stat: SourceStat)]? {
        let folder = path.parent
        let inSeasonFolder = !folder.isRoot && isSeasonFolder(folder.lastName)
        guard inSeasonFolder || isEpisodeName(path.lastName),
              let names = try? DirectoryReader.names(of: tree.absolute(folder)) else { return nil }
        let episodes = names.sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }.compactMap { name -> (SourcePath, SourceStat)? in
            guard MediaNames.isCandidate(name), inSeasonFolder || isEpisodeName(name) else { return nil }
            let episode = folder.appending(name)
            guard let stat = tree.sourceStat(episode), !stat.isDirectory, stat.identity.size > 0 else { return nil }
            return (episode, stat)
        }
        guard episodes.count >= 2, episodes.contains(where: { $0.0 == path }) else { return nil }
        return episodes
    }

    /// What names one comparison of a season: the versions of its episodes, in order.
    static func stamp(_ identities: [FileIdentity]) -> UInt64 {
        StableHasher.hash { hasher in
            for identity in identities { hasher.add(identity) }
        }
    }
}
