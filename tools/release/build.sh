#!/bin/sh
# Builds the release binaries: static (CGO_ENABLED=0), reproducible
# (-trimpath, no build ID), for linux, darwin and windows on amd64 and
# arm64, each stamped with the VCS revision (cicheck version prints it as
# build metadata, 0.0.0-dev+rev.1a2b3c4d5e6f),
# and a SHA256SUMS file over them. The project has no published home yet,
# so this only produces the files; CI runs it as a snapshot check.
#
#   sh tools/release/build.sh [OUTDIR]     (default: dist)
set -eu
cd "$(dirname "$0")/../.."
out=${1:-dist}
mkdir -p "$out"
for os in linux darwin windows; do
	for arch in amd64 arm64; do
		name="cicheck-$os-$arch"
		[ "$os" = windows ] && name="$name.exe"
		CGO_ENABLED=0 GOOS=$os GOARCH=$arch go build -trimpath -buildvcs=true \
			-ldflags='-s -w -buildid=' -o "$out/$name" ./cmd/cicheck
	done
done
(cd "$out" && sha256sum cicheck-* >SHA256SUMS && sha256sum -c --quiet SHA256SUMS)
ls "$out"
