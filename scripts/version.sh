#!/bin/sh
# version.sh: prints the version of this source tree. The Makefile builds it into the binary
# (`mediafs --version`, through MEDIAFS_VERSION) and names the Debian package with it.
#
#   a git checkout   `git describe --tags --match 'v[0-9]*' --dirty` without its v: 0.2.0 on the
#                    tag v0.2.0, 0.2.0-5-g1a2b3c4 five commits after it, with -dirty when files
#                    differ from the commit. Before the first such tag, 0.0.0-N-gHASH: N counts
#                    every commit.
#   a git archive    (a tarball made by `git archive`, GitHub's too) the same, which git archive
#                    writes into this file (export-subst in .gitattributes): never -dirty, and
#                    0.0.0-gHASH before the first tag.
#   anything else    `unknown`, exit status 1.
#
# Each form is a valid Debian version, later commits sorting later: dpkg reads 0.2.0-5-g1a2b3c4 as
# upstream version 0.2.0-5 and revision g1a2b3c4.

root=$(cd "$(dirname "$0")/.." && pwd -P)

# Filled in by git archive; in a checkout they keep their $Format placeholders.
archived_describe='$Format:%(describe:tags,match=v[0-9]*)$'
archived_hash='$Format:%h$'

# Only this tree's own repository: not that of a folder the tree was unpacked in.
top=$(git -C "$root" rev-parse --show-toplevel 2>/dev/null) && top=$(cd "$top" && pwd -P)
if [ "$top" = "$root" ]; then
    if described=$(git -C "$root" describe --tags --match 'v[0-9]*' --dirty 2>/dev/null); then
        echo "${described#v}"
        exit 0
    fi
    if hash=$(git -C "$root" rev-parse --short=7 HEAD 2>/dev/null); then
        dirty=
        git -C "$root" diff --quiet HEAD 2>/dev/null || dirty=-dirty
        echo "0.0.0-$(git -C "$root" rev-list --count HEAD)-g$hash$dirty"
        exit 0
    fi
fi

case $archived_hash in
    '$Format'*) ;;
    *)
        case $archived_describe in
            v[0-9]*) echo "${archived_describe#v}" ;;
            *) echo "0.0.0-g$archived_hash" ;;
        esac
        exit 0 ;;
esac

echo unknown
exit 1
