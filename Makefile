# mediafs: the two commands a newcomer runs are `make mount` and `make test` (see README.md).
#
#   make mount [MEDIA=folder] [MOUNTPOINT=folder]   install what is missing, build, mount
#   make unmount [MOUNTPOINT=folder]
#   make test                                       unit and real-mount tests; leaves no mount
#   make bench                                      measurements, written to Docs/PERFORMANCE.md
#   make deb                                        mediafs_VERSION_ARCH.deb (packaging/README.md)
#   make deb-test                                   that package installed and used in a Debian 12 root
#   make deps | build | clean

SHELL := /bin/bash
.DEFAULT_GOAL := help

# The toolchain may sit outside PATH (/opt/swift on the project's machines).
SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
SAMPLE := $(CURDIR)/sample-media
MEDIA ?= $(SAMPLE)
MOUNTPOINT ?= $(CURDIR)/mnt
RELEASE_BIN := $(CURDIR)/.build/release/mediafs

# The version built into the binary (`mediafs --version`) and the package's: scripts/version.sh,
# git describe. In the environment of every build, where Package.swift reads it.
ifeq ($(origin MEDIAFS_VERSION),undefined)
MEDIAFS_VERSION := $(shell sh scripts/version.sh)
endif
export MEDIAFS_VERSION

# Debian 12 packages: C libraries to build against, fuse3 for fusermount3, the ffmpeg command and
# the tools the tests and benchmarks drive (gcc compiles the bench's decode floor, bench/decode-floor.c;
# samba and smbclient serve a mount in the share test, chromium reads storyboards in the browser test,
# cjpeg (libjpeg-turbo-progs) tells the bench's real-footage section what libjpeg needs for a quality;
# mkvtoolnix muxes the Dolby Vision clips, and Mesa's Vulkan on the CPU runs ffmpeg's libplacebo
# filter, their independent reference; mpv loads the server layout's sidecars, tumbler and
# desktop-file-utils check the folders' faces; libchromaprint-dev fingerprints episodes' audio
# (a season's shared intro and credits) and libswresample-dev brings it to Chromaprint's rate;
# libchromaprint-tools' fpcalc is the bench's fingerprint floor; libtesseract-dev reads picture
# subtitles into text, and the DejaVu and Liberation fonts render the tests' picture subtitles.
# Tesseract's language data for the picture subtitles read into text: the languages most films'
# subtitles are in. A track in another language gets no text file until its tesseract-ocr-LANG is installed.
TESSERACT_LANGUAGES := tesseract-ocr-eng tesseract-ocr-deu tesseract-ocr-fra tesseract-ocr-spa \
	tesseract-ocr-ita tesseract-ocr-por tesseract-ocr-nld
APT_PACKAGES := pkg-config libfuse3-dev fuse3 libavformat-dev libavcodec-dev libavutil-dev \
	libswscale-dev libswresample-dev libavfilter-dev libchromaprint-dev libchromaprint-tools \
	libtesseract-dev $(TESSERACT_LANGUAGES) libpng-dev libjpeg-dev libjpeg-turbo-progs libjemalloc-dev ffmpeg ffmpegthumbnailer python3 python3-pil gcc \
	rsync attr tar util-linux fonts-dejavu-core fonts-dejavu-extra fonts-liberation mkvtoolnix mesa-vulkan-drivers samba smbclient chromium mpv tumbler desktop-file-utils
# What `make deb` and `make deb-test` need beyond them: dpkg-shlibdeps, lintian, a Debian root.
DEB_PACKAGES := dpkg-dev binutils lintian mmdebstrap
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: help deps deb-deps build mount unmount test test-build test-media bench deb deb-test clean

help:
	@sed -n '1,10p' Makefile | sed 's/^# \{0,1\}//'

# deb-deps: a package is built without /dev/fuse (packaging/test-deb.sh skips without it).
deps: PACKAGES = $(APT_PACKAGES)
deb-deps: PACKAGES = $(APT_PACKAGES) $(DEB_PACKAGES)
deps deb-deps:
	@missing=$$(for p in $(PACKAGES); do \
	    dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	    echo "installing:" $$missing; \
	    $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi
	@[ -x "$(SWIFT)" ] || { echo "Swift not found: install a Swift 6 toolchain (https://swift.org/install) or set SWIFT=/path/to/swift"; exit 1; }
	@[ $@ = deb-deps ] || [ -c /dev/fuse ] || { echo "/dev/fuse is missing: load the fuse module (modprobe fuse) or pass the device to the container"; exit 1; }

build: deps
	$(SWIFT) build -c release

# A sample library made with the ffmpeg command when MEDIA= is not given.
$(SAMPLE)/.fixtures-stamp: scripts/make-media.sh
	bash scripts/make-media.sh --small $(SAMPLE)

mount: build $(if $(filter $(SAMPLE),$(MEDIA)),$(SAMPLE)/.fixtures-stamp)
	@mkdir -p "$(MOUNTPOINT)"
	@if mountpoint -q "$(MOUNTPOINT)"; then echo "$(MOUNTPOINT) is already mounted; make unmount first"; exit 1; fi
	$(RELEASE_BIN) mount "$(MEDIA)" "$(MOUNTPOINT)"
	@echo
	@echo "mediafs is mounted on $(MOUNTPOINT) (source: $(MEDIA)). Try:"
	@echo "  ls -l $(MOUNTPOINT)"
	@echo "  ls -l $(MOUNTPOINT)/movie-1080p.mkv/"
	@echo "  python3 -m json.tool $(MOUNTPOINT)/movie-1080p.mkv/info.json | less"
	@echo "  ls $(MOUNTPOINT)/movie-1080p.mkv/thumbs/"
	@echo "  cp $(MOUNTPOINT)/movie-1080p.mkv/thumbs/at-12.5s.png /tmp/ && getfattr -d $(MOUNTPOINT)/movie-1080p.mkv/thumbs/at-12.5s.png"
	@echo "  ls $(MOUNTPOINT)/movie-1080p.mkv/chapters/ && cat $(MOUNTPOINT)/movie-1080p.mkv/chapters/chapters.txt"
	@echo "  ls -l $(MOUNTPOINT)/movie-1080p.mkv/tracks/*/ && cat $(MOUNTPOINT)/movie-1080p.mkv/tracks/legible/*.srt | head"
	@echo "  cmp $(MEDIA)/movie-1080p.mkv $(MOUNTPOINT)/movie-1080p.mkv/movie-1080p.mkv && echo same bytes"
	@echo "  make unmount"

unmount:
	@if mountpoint -q "$(MOUNTPOINT)"; then $(RELEASE_BIN) unmount "$(MOUNTPOINT)" || fusermount3 -u "$(MOUNTPOINT)"; \
	else echo "$(MOUNTPOINT) is not mounted"; fi

# Unit tests, then tests through real mounts, then the mount helper's tests. Fails if a mount the
# tests made is left behind: they make them all under one folder of this run (MEDIAFS_TEST_FOLDER),
# so the mounts of other programs on the machine, other test runs' too, are not counted; the
# mount helper's tests check their own. The tests build while test-media makes their films.
test: deps
	@$(MAKE) --no-print-directory -j2 test-build test-media
	@folder=$$(mktemp -d /tmp/mediafs-it.XXXXXX) || exit 1; \
	echo "$(SWIFT) test --skip-build (test folders under $$folder)"; \
	MEDIAFS_TEST_FOLDER=$$folder $(SWIFT) test --skip-build; status=$$?; \
	left=$$(grep -F " $$folder/" /proc/self/mounts); \
	if [ -n "$$left" ]; then echo "the tests left mounts behind:"; echo "$$left"; exit 1; fi; \
	rmdir "$$folder" 2>/dev/null; exit $$status
	bash mount-scripts/test.sh "$(CURDIR)/.build/debug/mediafs"
	@echo "make test: all passed, no mount left behind"

# The program and the tests, in one build.
test-build:
	$(SWIFT) build --build-tests

# The films Swift Testing asks for before it runs a test (EndCreditsTests and SceneTests take their
# cases and conditions from them): the real clips fetched with apt-get download, then the credits
# and scene films made, as the tests' loaders would make them (the same folders, absolute: the
# credits films' recipe names its text files), while the tests build rather than after. They are
# kept while their recipe holds; a failure here is left to the loaders, which make them again and
# say why.
test-media:
	@mkdir -p .build/test-media; start=$$SECONDS; log=.build/test-media/make-test-media.log; \
	if { python3 bench/credits_films.py "$(CURDIR)/.build/test-media/credits" \
	     && python3 bench/scene_films.py "$(CURDIR)/.build/test-media/scenes"; } > $$log 2>&1; \
	then echo "test media: the credits and scene films done in $$((SECONDS - start)) s ($$log)"; \
	else echo "test media: failed (see $$log); the tests make them again"; fi

# The package builds in .build/deb, apart from the other builds (packaging/make-deb.sh).
deb: deb-deps
	SWIFT=$(SWIFT) bash packaging/make-deb.sh

# Installs the package `make deb` made for this version into a clean Debian 12 root and uses it.
deb-test: deb
	bash packaging/test-deb.sh "$(CURDIR)/mediafs_$(MEDIAFS_VERSION)_$$(dpkg --print-architecture).deb"

# vcsi (the contact sheet peer) comes from PyPI.
bench: build
	@command -v vcsi >/dev/null || python3 -m pip install --quiet vcsi || echo "vcsi could not be installed: its comparison is skipped"
	MEDIAFS_BIN=$(RELEASE_BIN) python3 bench/bench.py

clean:
	$(SWIFT) package clean
	rm -rf .build/test-media
