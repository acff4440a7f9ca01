import Foundation
import Glibc
import Testing
import TestSupport

/// The daemon holds as many nodes as the kernel caches: what the kernel forgets, it drops, and a
/// node seen again has its number again. The kernel is made to forget by dropping its caches
/// (`echo 2 > /proc/sys/vm/drop_caches`: unused dentries and inodes go, and a FUSE inode that goes
/// is a forget), which needs root.
///
/// The tests run one at a time: one's dropping of the caches would make the other's kernel forget.
@Suite(.serialized, .mounts, .enabled(if: access("/proc/sys/vm/drop_caches", W_OK) == 0, "dropping the kernel's caches needs root"))
struct ForgettingTests {
    /// 3,000 names in `thumbs/` (any time is a name) grow the daemon's table by 3,000; once the
    /// kernel forgets them, the table is back to what it was, and each name has its number again.
    /// The listings kept of the folders listed go with the folders' numbers.
    @Test func theDaemonForgetsWhatTheKernelForgets() throws {
        try LibraryMount.with("forget") { library in
            let result = try Command.python(#"""
            import json, os, sys, time
            root, thumbs = sys.argv[1], sys.argv[1] + "/feature-1080p.mp4/thumbs"
            def stats():
                return json.loads(os.getxattr(root, "user.mediafs.stats"))
            def inodes():
                return stats()["inodes"]
            names = [f"at-{i / 1000:.3f}s.png" for i in range(3000)]
            before = inodes()
            first = {name: os.stat(f"{thumbs}/{name}") for name in names}
            os.listdir(root + "/feature-1080p.mp4")
            os.listdir(thumbs)
            kept = stats()["listings_kept"]
            grown = inodes()
            with open("/proc/sys/vm/drop_caches", "w") as f:
                f.write("2")
            deadline = time.monotonic() + 10
            while inodes() > before + 20 and time.monotonic() < deadline:
                time.sleep(0.05)
            forgotten = inodes()
            kept_after = stats()["listings_kept"]
            again = {name: os.stat(f"{thumbs}/{name}") for name in names}
            print(json.dumps({
                "before": before, "grown": grown, "forgotten": forgotten, "kept": kept, "kept_after": kept_after,
                "sizes": len({st.st_size for st in first.values()}),
                "same_numbers": all(again[n].st_ino == first[n].st_ino for n in names),
                "distinct_numbers": len({st.st_ino for st in first.values()}),
            }))
            """#, [library.mount.point], timeout: 120)
            expectSuccess(result)
            let figures = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let number = { (key: String) in figures[key] as? Int ?? -1 }
            #expect(number("grown") >= number("before") + 3000, "\(figures)")
            #expect(number("forgotten") <= number("before") + 20, "\(figures)")
            #expect(number("kept") >= 2 && number("kept_after") < number("kept"), "\(figures)")
            #expect(number("sizes") == 1 && number("distinct_numbers") == 3000, "\(figures)")
            #expect(figures["same_numbers"] as? Bool == true, "\(figures)")
        }
    }

    /// Lookups of the same names while the kernel forgets them again and again: the daemon drops
    /// numbers while lookups of their nodes are under way. Every `stat` succeeds with the name's
    /// one number, and every listed entry's inode number is the one `stat` gives.
    @Test func lookupsRacingForgetsAllSucceedWithStableNumbers() throws {
        try LibraryMount.with("forget-race") { library in
            let result = try Command.python(#"""
            import json, os, random, sys, threading, time
            root = sys.argv[1]
            thumbs = root + "/feature-1080p.mp4/thumbs"
            names = [f"at-{i / 100:.2f}s.png" for i in range(300)]
            seen, problems, stats = {}, [], [0]
            lock = threading.Lock()
            stop = time.monotonic() + 4
            def statter(seed):
                rng = random.Random(seed)
                while time.monotonic() < stop:
                    name = rng.choice(names)
                    try:
                        number = os.stat(f"{thumbs}/{name}").st_ino
                    except OSError as error:
                        with lock: problems.append(f"stat {name}: {error}")
                        continue
                    with lock:
                        stats[0] += 1
                        if seen.setdefault(name, number) != number:
                            problems.append(f"{name}: {seen[name]} then {number}")
            def lister():
                while time.monotonic() < stop:
                    for folder in (root + "/feature-1080p.mp4", thumbs):
                        try:
                            for entry in os.scandir(folder):
                                if entry.inode() != os.lstat(entry.path).st_ino:
                                    with lock: problems.append(f"listed number of {entry.path}")
                        except OSError as error:
                            with lock: problems.append(f"list {folder}: {error}")
            threads = [threading.Thread(target=statter, args=(i,)) for i in range(4)] + [threading.Thread(target=lister)]
            for t in threads: t.start()
            drops = 0
            while time.monotonic() < stop:
                with open("/proc/sys/vm/drop_caches", "w") as f:
                    f.write("2")
                drops += 1
                time.sleep(0.05)
            for t in threads: t.join()
            print(json.dumps({"stats": stats[0], "drops": drops, "problems": problems[:20]}))
            """#, [library.mount.point], timeout: 120)
            expectSuccess(result)
            let figures = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            #expect((figures["problems"] as? [String])?.isEmpty == true, "\(figures)")
            #expect((figures["stats"] as? Int ?? 0) > 1000 && (figures["drops"] as? Int ?? 0) > 20, "\(figures)")
            // The mount still answers.
            expectSuccess(try Command.run(["ls", "-l", library.path("feature-1080p.mp4/thumbs")]))
        }
    }
}
