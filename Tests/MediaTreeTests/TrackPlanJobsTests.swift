import Foundation
import MediaKit
@testable import MediaTree
import SystemPackage
import Testing
import TestSupport

/// The tree's side of extraction: a plan's entries become MediaKit's jobs, written as
/// `<folder>/<group>/<name>`, into group folders the tree makes.
@Suite struct TrackPlanJobsTests {
    let media = LocalMediaService(probeTimeout: 20)

    @Test func eachEntryIsAJobWrittenInItsGroupsFolder() {
        let plan = TrackPlan(entries: [
            .init(group: .audible, name: "eng English AAC stereo.mka", streamIndex: 1, output: .audioMatroska, language: "eng"),
            .init(group: .legible, name: "und Undetermined SRT.srt", streamIndex: 3, output: .subtitleSRT, language: "und"),
        ])
        #expect(plan.jobs(into: "/cache/tracks/set") == [
            TrackJob(streamIndex: 1, output: .audioMatroska, path: "/cache/tracks/set/audible/eng English AAC stereo.mka", language: "eng"),
            TrackJob(streamIndex: 3, output: .subtitleSRT, path: "/cache/tracks/set/legible/und Undetermined SRT.srt", language: "und"),
        ])
    }

    @Test func aPlanIsExtractedIntoItsGroupFolders() throws {
        let source = try TestMedia.file("clips/clip-vp9.webm").path
        let size = (try FileManager.default.attributesOfItem(atPath: source)[.size] as! NSNumber).int64Value
        let plan = TrackPlan(info: try media.probe(path: FilePath(source), size: size))
        let folder = try TempFolder("plan-jobs")
        defer { folder.remove() }
        let results = try media.extractTracks(path: FilePath(source), size: size, plan: plan, into: folder.path("set"), timeout: 60)
        #expect(results.map(\.entry) == plan.entries)
        for result in results {
            let track = try #require(result.track, "\(result.entry.name): \(String(describing: result.error))")
            #expect(track.path.string == "\(folder.path)/set/\(result.entry.group.rawValue)/\(result.entry.name)")
            #expect(FileManager.default.fileExists(atPath: track.path.string))
        }
    }

    @Test func groupFoldersThatCannotBeMadeFailThePass() throws {
        let source = try TestMedia.file("clips/clip-vp9.webm").path
        let size = (try FileManager.default.attributesOfItem(atPath: source)[.size] as! NSNumber).int64Value
        let plan = TrackPlan(info: try media.probe(path: FilePath(source), size: size))
        do {
            _ = try media.extractTracks(path: FilePath(source), size: size, plan: plan, into: "/dev/null/tracks", timeout: 60)
            Issue.record("wrote under /dev/null")
        } catch MediaError.output {
        } catch { Issue.record("unwritable: \(error)") }
    }
}
