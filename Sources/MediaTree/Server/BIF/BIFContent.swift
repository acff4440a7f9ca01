import MediaKit
import Synchronization

/// An open BIF: each read served by offset, without the whole file. The header and index come from
/// the layout (`BIFLayout.prefix()`); the frames are made in runs of a sheet's tiles
/// (`BIFFramesRecipe`), each through the pipeline (`MediaTree.made`: memory, disk cache, made once
/// on the generation pool), only those a read reaches; the run after the last one a read reaches
/// is begun meanwhile, so that a reader going through the file finds it made or under way.
final class BIFContent: FileContent {
    private let tree: MediaTree
    private let mediaVersion: MediaVersion
    private let storyboard: StoryboardLayout
    private let layout: BIFLayout
    private let shownAs: String
    /// Every frame's length: the tile's JPEG budget.
    private let frameBytes: Int
    /// Frames a run holds: a sheet's tiles.
    private let runFrames: Int

    init(tree: MediaTree, version: MediaVersion, storyboard: StoryboardLayout, layout: BIFLayout, shownAs: String) {
        self.tree = tree
        mediaVersion = version
        self.storyboard = storyboard
        self.layout = layout
        self.shownAs = shownAs
        frameBytes = storyboard.frameBudget.bytes
        runFrames = storyboard.tilesPerSheet
    }

    var version: FileIdentity { mediaVersion.identity }

    private var runCount: Int { (layout.imageCount + runFrames - 1) / runFrames }

    /// Run `run`'s frames: their recipe, and where its bytes start in the file.
    private func recipe(ofRun run: Int) -> BIFFramesRecipe {
        let first = run * runFrames
        return BIFFramesRecipe(request: storyboard.request, frames: first..<min(layout.imageCount, first + runFrames),
                               frameBytes: frameBytes)
    }

    private func start(ofRun run: Int) -> Int { layout.firstImageOffset + run * runFrames * frameBytes }

    func read(offset: Int64, count: Int, reply: @escaping Reply<[UInt8]>) {
        let start = Int(min(offset, Int64(layout.fileSize)))
        let end = min(layout.fileSize, start + max(0, count))
        guard start < end else { return reply(.success([])) }
        let prefixEnd = layout.firstImageOffset
        let head = start < prefixEnd ? Array(layout.prefix()[start..<min(end, prefixEnd)]) : []
        guard end > prefixEnd else { return reply(.success(head)) }
        let runs = Array(run(atByte: max(start, prefixEnd))...run(atByte: end - 1))
        let made = Mutex<(left: Int, bytes: [Int: [UInt8]], failure: Error?)>((runs.count, [:], nil))
        for run in runs {
            tree.made(recipe(ofRun: run), of: mediaVersion, shownAs: shownAs) { [self] result in
                let done = made.withLock { state -> Bool in
                    switch result {
                    case .success(let frames): state.bytes[run] = frames.bytes
                    case .failure(let error): state.failure = state.failure ?? error
                    }
                    state.left -= 1
                    return state.left == 0
                }
                guard done else { return }
                let (bytes, failure) = made.withLock { ($0.bytes, $0.failure) }
                if let failure { return reply(.failure(failure)) }
                var answer = head
                for run in runs {
                    let runStart = self.start(ofRun: run), frames = bytes[run]!
                    answer += frames[(max(start, runStart) - runStart)..<(min(end, runStart + frames.count) - runStart)]
                }
                reply(.success(answer))
            }
        }
        if let next = runs.last.map({ $0 + 1 }), next < runCount {
            tree.made(recipe(ofRun: next), of: mediaVersion, shownAs: shownAs) { _ in }
        }
    }

    /// The run holding byte `offset` of the frames (at or past `firstImageOffset`).
    private func run(atByte offset: Int) -> Int {
        min(runCount - 1, (offset - layout.firstImageOffset) / (runFrames * frameBytes))
    }
}

/// A run of a BIF's frames: tiles `frames` of the storyboard of `request`, each alone as a JPEG of
/// `frameBytes` bytes, back to back. Made by `MediaService.storyboardFrames`.
struct BIFFramesRecipe: MediaRecipe, Codable {
    let request: StoryboardRequest
    let frames: Range<Int>
    let frameBytes: Int

    var kind: MadeKind { .bifFrames }
    var size: Int { frames.count * frameBytes }

    func make(from file: MediaFile, media: any MediaService) throws -> MadeBytes {
        guard let storyboard = StoryboardLayout(request) else {
            throw MediaError.imageFailed(reason: "no storyboard layout for the BIF's frames")
        }
        return MadeBytes(bytes: try media.storyboardFrames(of: file, storyboard: storyboard, frames: frames).flatMap { $0 })
    }
}

extension MadeKind {
    /// Runs of a BIF's frames (`BIFFramesRecipe`).
    static let bifFrames = MadeKind(name: "bif_frames", revision: 1)
}
