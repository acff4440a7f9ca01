#!/usr/bin/env bash
# install.sh: installs mediafs, its mount(8) helper and its systemd unit; --uninstall removes them.
#
#   sudo mount-scripts/install.sh            PREFIX/bin/mediafs (PREFIX=/usr/local),
#                                            /sbin/mount.fuse.mediafs,
#                                            /etc/systemd/system/mediafs@.service
#   mount-scripts/install.sh --user          PREFIX/bin/mediafs (PREFIX=~/.local, /usr/local as root),
#                                            ~/.config/systemd/user/mediafs@.service
#   ... --uninstall                          removes what the same command installs
#
#   --bin PATH      the binary to install (default: .build/release/mediafs of this checkout)
#   --prefix DIR    where the binary goes (DIR/bin); the helper and the unit are made to use it
#   --destdir DIR   stage everything under DIR (packaging, tests); systemd is not told
#
# Configuration (/etc/mediafs/*.conf, ~/.config/mediafs/*.conf) is created by you and never removed.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
user_mode=false
uninstall=false
bin=
prefix=
destdir=

usage() { sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit "${1:-1}"; }

while [[ $# -gt 0 ]]; do
  case $1 in
    --user) user_mode=true; shift ;;
    --uninstall) uninstall=true; shift ;;
    --bin) [[ $# -ge 2 ]] || usage; bin=$2; shift 2 ;;
    --prefix) [[ $# -ge 2 ]] || usage; prefix=$2; shift 2 ;;
    --destdir) [[ $# -ge 2 ]] || usage; destdir=${2%/}; shift 2 ;;
    -h|--help) usage 0 ;;
    *) echo "install.sh: unknown argument '$1'" >&2; usage ;;
  esac
done

is_root=false
[[ $(id -u) == 0 ]] && is_root=true

if [[ -z $prefix ]]; then
  if $user_mode && ! $is_root; then prefix=$HOME/.local; else prefix=/usr/local; fi
fi
prefix=${prefix%/}
installed_bin=$prefix/bin/mediafs
helper=/sbin/mount.fuse.mediafs
if $user_mode; then
  unit_dir=${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user
  unit_source=$here/user/mediafs@.service
else
  unit_dir=/etc/systemd/system
  unit_source=$here/system/mediafs@.service
fi
unit=$unit_dir/mediafs@.service

if ! $is_root && [[ -z $destdir ]] && ! $user_mode; then
  echo "install.sh: the system install writes to /sbin and /etc: run it as root (or use --user)" >&2
  exit 1
fi

# Tells the running systemd (system or user manager) to read the unit files again.
reload_systemd() {
  [[ -z $destdir ]] || return 0
  if $user_mode; then
    if [[ -n ${XDG_RUNTIME_DIR:-} ]] && systemctl --user daemon-reload 2>/dev/null; then
      echo "systemctl --user daemon-reload"
    fi
  elif [[ -d /run/systemd/system ]]; then
    systemctl daemon-reload && echo "systemctl daemon-reload"
  fi
}

if $uninstall; then
  shopt -s nullglob
  enabled=("$destdir$unit_dir"/*.wants/mediafs@*.service)
  if [[ ${#enabled[@]} -gt 0 ]]; then
    scope=; $user_mode && scope="--user "
    echo "still enabled (disable them first: systemctl ${scope}disable --now NAME):"
    printf '  %s\n' "${enabled[@]##*/}"
  fi
  files=("$destdir$installed_bin" "$destdir$unit")
  $user_mode || files+=("$destdir$helper")
  for file in "${files[@]}"; do
    if [[ -e $file || -L $file ]]; then rm -f "$file" && echo "removed $file"; fi
  done
  reload_systemd
  exit 0
fi

if [[ -z $bin ]]; then
  bin=$here/../.build/release/mediafs
  if [[ ! -x $bin ]]; then
    echo "install.sh: no release build at .build/release/mediafs: run 'swift build -c release' first, or pass --bin PATH" >&2
    exit 1
  fi
fi
[[ -x $bin ]] || { echo "install.sh: '$bin' is not an executable" >&2; exit 1; }

# The helper and the units name /usr/local/bin/mediafs; point them at the binary's real place.
replacement=${installed_bin//\\/\\\\}
replacement=${replacement//&/\\&}
replacement=${replacement//#/\\#}
substitute() { sed "s#/usr/local/bin/mediafs#$replacement#g" "$1"; }

install -D -m 755 "$bin" "$destdir$installed_bin"
echo "installed $destdir$installed_bin"

if ! $user_mode; then
  # On merged-/usr systems /sbin is a link to usr/sbin, so this is /usr/sbin/mount.fuse.mediafs
  # too; elsewhere /sbin is where mount(8) looks for helpers.
  mkdir -p "$destdir/sbin"
  substitute "$here/mount.mediafs" > "$destdir$helper.new"
  chmod 755 "$destdir$helper.new"
  mv -f "$destdir$helper.new" "$destdir$helper"
  echo "installed $destdir$helper$([[ -L $destdir/sbin ]] && echo " (/sbin -> $(readlink "$destdir/sbin"))")"
fi

mkdir -p "$destdir$unit_dir"
substitute "$unit_source" > "$destdir$unit.new"
chmod 644 "$destdir$unit.new"
mv -f "$destdir$unit.new" "$destdir$unit"
echo "installed $destdir$unit"
reload_systemd

if $user_mode; then config=${XDG_CONFIG_HOME:-$HOME/.config}/mediafs; else config=/etc/mediafs; fi
echo "next: put MEDIAFS_SOURCE=... in $config/INSTANCE.conf (INSTANCE: systemd-escape --path MOUNTPOINT); see mount-scripts/README.md"
