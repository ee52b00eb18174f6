#!/bin/sh
# Rebuilds tlog-check.wasm and copies wasm_exec.js beside it, from Debian's Go packages only:
#   apt-get install golang-go golang-golang-x-mod-dev
# (Go 1.19 and golang.org/x/mod 0.7.0 in Debian 12). The suite runs the committed .wasm, so a
# new user's `npm test` needs no Go; rebuild only when main.go changes.
set -eu
cd "$(dirname "$0")"
GOROOT="$(go env GOROOT)"
GO111MODULE=off GOPATH=/usr/share/gocode GOOS=js GOARCH=wasm CGO_ENABLED=0 \
  go build -trimpath -ldflags="-s -w" -o tlog-check.wasm main.go
cp "$GOROOT/misc/wasm/wasm_exec.js" wasm_exec.js
go version
ls -l tlog-check.wasm
