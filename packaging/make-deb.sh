#!/usr/bin/env bash
# packaging/make-deb.sh: builds mediafs_VERSION_ARCH.deb, a Debian package that runs without a
# Swift toolchain. `make deb` runs it; packaging/README.md says what the package holds and why.
#
#   packaging/make-deb.sh [--out DIR]      the .deb goes to DIR (default: the checkout's root)
#
# 1. `swift build -c release --static-swift-stdlib` in .build/deb (the flag changes every compile
#    command, so the package has its own build folder and never rebuilds the others);
# 2. the manual page mediafs.1 from the binary's own help, by swift-argument-parser's
#    generate-manual (built once in .build/deb/manual-tool, unoptimised: it runs once a package);
# 3. the files laid out under a staging folder: the stripped binary, the mount(8) helper and the
#    systemd units pointing at /usr/bin/mediafs, the manual pages, the documentation, copyright
#    and changelog;
# 4. Depends: what dpkg-shlibdeps finds the binary links, and fuse3 (fusermount3); Recommends
#    libtesseract5 (loaded at the first reading, not linked) and English Tesseract data, Suggests
#    other languages' (picture subtitles read into text);
# 5. dpkg-deb, then lintian when it is installed: an error fails the build.
#
# Environment: MEDIAFS_VERSION (default: scripts/version.sh; `unknown` is refused), SWIFT (default:
# swift on PATH, else /opt/swift/usr/bin/swift), DEB_MAINTAINER. Needs dpkg-dev and binutils.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=$root
case ${1-} in
  --out) [[ $# -eq 2 ]] || { echo "usage: packaging/make-deb.sh [--out DIR]" >&2; exit 2; }; out=$(cd "$2" && pwd) ;;
  '') ;;
  *) echo "usage: packaging/make-deb.sh [--out DIR]" >&2; exit 2 ;;
esac

swift=${SWIFT:-$(command -v swift || echo /opt/swift/usr/bin/swift)}
version=${MEDIAFS_VERSION:-$(sh "$root/scripts/version.sh" || true)}
maintainer=${DEB_MAINTAINER:-mediafs developers <dev@mediafs.invalid>}
arch=$(dpkg --print-architecture)
build=$root/.build/deb

if [[ ! $version =~ ^[0-9][A-Za-z0-9.+~-]*$ ]]; then
  echo "make-deb.sh: '$version' is not a version a package can have: build from a git checkout or a" \
       "git archive, or set MEDIAFS_VERSION" >&2
  exit 1
fi
for tool in dpkg-deb dpkg-shlibdeps strip gzip; do
  command -v "$tool" > /dev/null || { echo "make-deb.sh: '$tool' is missing: apt-get install dpkg-dev binutils" >&2; exit 1; }
done

# Dates in the package (manual pages, changelog, file times) are the commit's, so that one commit
# always makes the same package.
if epoch=$(git -C "$root" log -1 --format=%ct 2> /dev/null); then :; else epoch=$(date +%s); fi
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$epoch}
day=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d)

echo "make-deb.sh: mediafs $version ($arch)"
MEDIAFS_VERSION=$version "$swift" build -c release --static-swift-stdlib --product mediafs --scratch-path "$build" \
  --package-path "$root"
binary=$build/release/mediafs
built=$("$binary" --version)
[[ $built == "$version" ]] || { echo "make-deb.sh: the binary says version '$built', not '$version'" >&2; exit 1; }
if ldd "$binary" | grep -q 'libswift\|libFoundation\|libdispatch\|/opt/swift'; then
  echo "make-deb.sh: the binary still links the toolchain's runtime:" >&2
  ldd "$binary" >&2
  exit 1
fi

"$swift" build --package-path "$build/checkouts/swift-argument-parser" \
  --scratch-path "$build/manual-tool" --product generate-manual
manual_tool=$build/manual-tool/debug/generate-manual

work=$(mktemp -d "${TMPDIR:-/tmp}/mediafs-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
stage=$work/stage
umask 022
mkdir -p "$stage"/DEBIAN "$stage"/usr/bin "$stage"/usr/sbin "$stage"/usr/lib/systemd/system \
  "$stage"/usr/lib/systemd/user "$stage"/usr/share/man/man1 "$stage"/usr/share/man/man8 \
  "$stage"/usr/share/doc/mediafs

# The binary, stripped as dh_strip does.
strip --strip-unneeded --remove-section=.comment --remove-section=.note -o "$stage/usr/bin/mediafs" "$binary"
chmod 755 "$stage/usr/bin/mediafs"

# The helper and the units name /usr/local/bin/mediafs, where install.sh puts it.
to_usr_bin() { sed 's#/usr/local/bin/mediafs#/usr/bin/mediafs#g' "$1"; }
to_usr_bin "$root/mount-scripts/mount.mediafs" > "$stage/usr/sbin/mount.fuse.mediafs"
chmod 755 "$stage/usr/sbin/mount.fuse.mediafs"
to_usr_bin "$root/mount-scripts/system/mediafs@.service" > "$stage/usr/lib/systemd/system/mediafs@.service"
to_usr_bin "$root/mount-scripts/user/mediafs@.service" > "$stage/usr/lib/systemd/user/mediafs@.service"

# Manual pages: mediafs.1 from the help of every subcommand; the helper's is written.
# generate-manual drops every character outside ASCII (the help's "…"): it reads the help through
# a wrapper that spells them in ASCII.
mkdir "$work/ascii"
printf '#!/bin/sh\n"%s" "$@" | iconv -f UTF-8 -t ASCII//TRANSLIT\n' "$binary" > "$work/ascii/mediafs"
chmod 755 "$work/ascii/mediafs"
"$manual_tool" "$work/ascii/mediafs" --date "$day" --output-directory "$work"
# A blank line between the help's paragraphs is an empty input line to groff (lintian warns):
# mdoc's paragraph macro instead, and a table's lines (the exit statuses) kept as they are shown.
sed -e 's/^$/.Pp/' -e 's/^ \{1,\}\([0-9]\{1,3\}\)  /.br\n\1  /' "$work/mediafs.1" | gzip -9n > "$stage/usr/share/man/man1/mediafs.1.gz"
sed -e "s/@DATE@/$day/" -e "s/@VERSION@/$version/" "$root/packaging/mount.fuse.mediafs.8" \
  | gzip -9n > "$stage/usr/share/man/man8/mount.fuse.mediafs.8.gz"

doc=$stage/usr/share/doc/mediafs
gzip -9n < "$root/README.md" > "$doc/README.md.gz"
gzip -9n < "$root/Docs/LAYOUT.md" > "$doc/LAYOUT.md.gz"
gzip -9n < "$root/Docs/DESIGN.md" > "$doc/DESIGN.md.gz"
gzip -9n < "$root/mount-scripts/README.md" > "$doc/mount-scripts.md.gz"

# copyright: mediafs and the runtime (packaging/copyright), then each Swift package linked in.
{
  cat "$root/packaging/copyright"
  for checkout in "$build"/checkouts/*/; do
    name=$(basename "$checkout")
    license=$(find "$checkout" -maxdepth 1 -iname 'licen[cs]e*' | sort | head -n 1)
    echo
    echo "--------------------------------------------------------------------------------"
    echo "$name $(git -C "$checkout" describe --tags --always 2> /dev/null)"
    echo
    if [[ -z $license ]]; then
      echo "No license file."
    elif grep -q 'Apache License' "$license" && grep -q 'Version 2.0, January 2004' "$license"; then
      echo "Apache License 2.0: /usr/share/common-licenses/Apache-2.0."
      grep -q 'Runtime Library Exception' "$license" && echo "With the Runtime Library Exception (above)."
    else
      cat "$license"
    fi
    notice=$(find "$checkout" -maxdepth 1 -iname 'notice*' | sort | head -n 1)
    if [[ -n $notice ]]; then echo; cat "$notice"; fi
  done
} > "$doc/copyright"

cat > "$work/changelog" << EOF
mediafs ($version) unstable; urgency=medium

  * Built from git: scripts/version.sh says $version.

 -- $maintainer  $(date -u -R -d "@$SOURCE_DATE_EPOCH")
EOF
gzip -9n < "$work/changelog" > "$doc/changelog.Debian.gz"

# Depends: the libraries the binary links, by the packages that hold them here.
mkdir -p "$work/debian"
printf 'Source: mediafs\n\nPackage: mediafs\nArchitecture: any\n' > "$work/debian/control"
shlibs=$(cd "$work" && dpkg-shlibdeps -O -e"$stage/usr/bin/mediafs" 2> "$work/shlibdeps.log") \
  || { cat "$work/shlibdeps.log" >&2; exit 1; }
shlibs=${shlibs#shlibs:Depends=}
[[ -n $shlibs ]] || { echo "make-deb.sh: dpkg-shlibdeps found no library" >&2; exit 1; }

find "$stage" -path "$stage/DEBIAN" -prune -o -type f -printf '%P\0' | sort -z \
  | (cd "$stage" && xargs -0 md5sum) > "$stage/DEBIAN/md5sums"
chmod 644 "$stage/DEBIAN/md5sums"
installed_size=$(du -sk --apparent-size --exclude=DEBIAN "$stage" | cut -f1)

cat > "$stage/DEBIAN/control" << EOF
Package: mediafs
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $installed_size
Depends: $shlibs, fuse3
Recommends: libtesseract5, tesseract-ocr-eng
Suggests: tesseract-ocr-deu, tesseract-ocr-fra, tesseract-ocr-spa, tesseract-ocr-ita, tesseract-ocr-por, tesseract-ocr-nld
Section: utils
Priority: optional
Description: read-only FUSE filesystem showing each video as a folder of its parts
 mediafs mounts a media folder read-only and mirrors it: folders stay folders
 and other files pass through, and each video becomes a folder holding the
 original, info.json with everything the probe found, its cover, one image per
 chapter, thumbnails of any frame made on demand, a contact sheet, storyboards
 for players' scrubbing bars, and one file per audio and subtitle track.
 Picture subtitles (Blu-ray PGS, DVD) are also read into text with Tesseract,
 in the languages whose tesseract-ocr-LANG data is installed.
 .
 The server layout leaves films as they are and puts beside each one the
 posters, subtitles, trickplay images and BIF files media servers such as
 Jellyfin, Plex, Emby and Kodi read.
 .
 Mount with "mediafs mount", "mount -t fuse.mediafs", /etc/fstab or the
 mediafs@.service systemd units.
EOF

find "$stage" -exec touch --no-dereference -d "@$SOURCE_DATE_EPOCH" {} +
deb=$out/mediafs_${version}_$arch.deb
dpkg-deb -Zxz --root-owner-group --build "$stage" "$deb"
echo "make-deb.sh: built $deb ($(du -h "$deb" | cut -f1))"

if command -v lintian > /dev/null; then
  echo "make-deb.sh: lintian $(basename "$deb")"
  lintian --fail-on error --display-info "$deb" || { echo "make-deb.sh: lintian found errors" >&2; exit 1; }
else
  echo "make-deb.sh: lintian is not installed: the package is not checked (apt-get install lintian)"
fi
