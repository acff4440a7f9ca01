// scene-timing: times `LocalMediaService().scenes` on each file named, in this process (the
// release build's figures, before the mount's side lands): seconds (best of RUNS) and the cuts'
// frame numbers, one line of JSON per file.
// Usage: swift run -c release scene-timing [--threads N] [--runs N] FILE...
import Foundation
import MediaKit
import SystemPackage

var arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String, _ fallback: Int, in arguments: inout [String]) -> Int {
    guard let at = arguments.firstIndex(of: name), at + 1 < arguments.count, let value = Int(arguments[at + 1]) else { return fallback }
    arguments.removeSubrange(at...at + 1)
    return value
}
let threads = option("--threads", 1, in: &arguments), runs = option("--runs", 3, in: &arguments)
for path in arguments {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    let modified = Int64((attributes[.modificationDate] as! Date).timeIntervalSince1970 * 1e9)
    let file = MediaFile(path: FilePath(path), size: (attributes[.size] as! NSNumber).int64Value, modificationNanoseconds: modified)
    var best = Double.infinity
    var list: SceneList?
    for _ in 0..<runs {
        let started = Date()
        list = try LocalMediaService().scenes(of: file, request: AnalysisRequest(threads: threads))
        best = min(best, Date().timeIntervalSince(started))
    }
    let line: [String: Any] = ["file": path, "seconds": best, "frames": list!.frames, "cuts": list!.cuts.map(\.frame)]
    print(String(data: try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys]), encoding: .utf8)!)
}
