// Command tlog-check verifies a transparency log published as static files, with Go's reference
// packages for checksum-database logs (golang.org/x/mod/sumdb/tlog and sumdb/note), so the suite
// checks our log against an implementation that is not ours.
//
// It reads a copy of the log folder ({PUBLIC_URL}/log/) handed to it, never the network:
//
//	tlog-check -dir LOG [-key VKEY_FILE] [-old CHECKPOINT_FILE]... [-entries]
//
// and checks, per C2SP tlog-checkpoint, tlog-tiles and signed-note (RFC 6962 SHA-256 hashing):
//   - the checkpoint's Ed25519 signature (note.Open) under the key named by its origin line;
//   - the tree hash recomputed from the hash tiles (tlog.TileHashReader, tlog.TreeHash);
//   - every entry of the entry bundles (big-endian uint16 length, then the entry) against its
//     record hash in the tiles, and the whole tree recomputed from the entries (tlog.StoredHashes):
//     its hash must be the checkpoint's and every tile must be the one it makes (tlog.ReadTileData).
//     The second check is not redundant: x/mod 0.7.0's TileHashReader leaves some tiles
//     unauthenticated (its loop over the tiles to check starts at the count of subtree hashes,
//     not of the distinct tiles holding them), so a level-0 tile changed in a log of 300 entries
//     passes it;
//   - each older checkpoint given with -old: signed by the same key, and the new tree extends it
//     (tlog.ProveTree, tlog.CheckTree).
//
// With -proof FILE (repeatable, and -key VKEY_FILE) it checks C2SP tlog-proofs instead, as a review's proof
// (docs/verification.md): the checkpoint's signature (note.Open, cosignature lines ignored), and the
// entry the proof's extra carries ({"entry": "<entry text>", ...}) at its index under the checkpoint's
// root, with tlog.RecordHash and tlog.CheckRecord.
//
// It prints one JSON report on stdout and exits 0 when everything holds, 1 when something does not
// (the report's "errors" say what), 2 on a usage error.
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

// tlog-tiles: tiles are 256 hashes wide, so Go's tile height is 8.
const tileHeight = 8
const tileWidth = 1 << tileHeight

type report struct {
	OK             bool     `json:"ok"`
	Origin         string   `json:"origin"`
	KeyName        string   `json:"key_name"`
	Size           int64    `json:"size"`
	RootHash       string   `json:"root_hash"`
	EntriesChecked int64    `json:"entries_checked"`
	ConsistentWith []int64  `json:"consistent_with"`
	Entries        []string `json:"entries,omitempty"`
	Errors         []string `json:"errors"`
}

type checkpoint struct {
	origin string
	tree   tlog.Tree
}

type oldList []string

func (o *oldList) String() string     { return strings.Join(*o, ",") }
func (o *oldList) Set(v string) error { *o = append(*o, v); return nil }

func main() {
	dir := flag.String("dir", "", "the log folder: checkpoint, vkey, tile/…")
	keyFile := flag.String("key", "", "the verifier key file (default: DIR/vkey)")
	printEntries := flag.Bool("entries", false, "print every entry in the report")
	var olds oldList
	flag.Var(&olds, "old", "an older checkpoint the log must extend (repeatable)")
	var proofs oldList
	flag.Var(&proofs, "proof", "a C2SP tlog-proof file to check (with -key) instead of a log folder (repeatable)")
	flag.Parse()
	if len(proofs) > 0 && *keyFile != "" && *dir == "" && flag.NArg() == 0 {
		r := &report{ConsistentWith: []int64{}, Errors: []string{}, Entries: []string{}}
		for _, file := range proofs {
			checkProof(file, *keyFile, r)
		}
		r.OK = len(r.Errors) == 0
		out, _ := json.Marshal(r)
		fmt.Println(string(out))
		if !r.OK {
			os.Exit(1)
		}
		return
	}
	if *dir == "" || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: tlog-check -dir LOG [-key VKEY_FILE] [-old CHECKPOINT]... [-entries]\n       tlog-check -key VKEY_FILE -proof TLOG_PROOF...")
		os.Exit(2)
	}
	if *keyFile == "" {
		*keyFile = filepath.Join(*dir, "vkey")
	}
	r := check(*dir, *keyFile, olds, *printEntries)
	r.OK = len(r.Errors) == 0
	out, _ := json.Marshal(r)
	fmt.Println(string(out))
	if !r.OK {
		os.Exit(1)
	}
}

func check(dir, keyFile string, olds []string, printEntries bool) *report {
	r := &report{ConsistentWith: []int64{}, Errors: []string{}}
	fail := func(format string, args ...interface{}) *report {
		r.Errors = append(r.Errors, fmt.Sprintf(format, args...))
		return r
	}
	vkey, err := os.ReadFile(keyFile)
	if err != nil {
		return fail("vkey: %v", err)
	}
	verifier, err := note.NewVerifier(strings.TrimSpace(string(vkey)))
	if err != nil {
		return fail("vkey: %v", err)
	}
	r.KeyName = verifier.Name()
	cp, err := openCheckpoint(filepath.Join(dir, "checkpoint"), verifier)
	if err != nil {
		return fail("checkpoint: %v", err)
	}
	r.Origin, r.Size, r.RootHash = cp.origin, cp.tree.N, cp.tree.Hash.String()

	if cp.tree.N == 0 {
		// RFC 6962 §2.1: the hash of an empty list is the hash of an empty string (Go's TreeHash
		// answers a zero hash for it, so this one case is checked here).
		if cp.tree.Hash != tlog.Hash(sha256.Sum256(nil)) {
			fail("checkpoint: an empty tree's hash must be SHA-256 of the empty string")
		}
	} else {
		hashes := tlog.TileHashReader(cp.tree, &tileReader{dir: dir, cache: map[tlog.Tile][]byte{}})
		th, err := tlog.TreeHash(cp.tree.N, hashes)
		if err != nil {
			return fail("tiles: %v", err)
		}
		if th != cp.tree.Hash {
			return fail("tiles: tree hash %v, checkpoint says %v", th, cp.tree.Hash)
		}
		stored, err := checkEntries(dir, cp.tree.N, hashes, r, printEntries)
		if err != nil {
			return fail("entries: %v", err)
		}
		if err := checkTreeOfEntries(dir, cp.tree, stored); err != nil {
			return fail("entries: %v", err)
		}
		for _, file := range olds {
			if err := checkConsistency(file, verifier, cp, hashes); err != nil {
				fail("consistency with %s: %v", file, err)
			} else if old, _ := openCheckpoint(file, verifier); old != nil {
				r.ConsistentWith = append(r.ConsistentWith, old.tree.N)
			}
		}
		return r
	}
	for _, file := range olds {
		old, err := openCheckpoint(file, verifier)
		if err != nil {
			fail("consistency with %s: %v", file, err)
		} else if old.tree != cp.tree {
			fail("consistency with %s: the log has shrunk from %d entries to 0", file, old.tree.N)
		} else {
			r.ConsistentWith = append(r.ConsistentWith, 0)
		}
	}
	return r
}

// openCheckpoint verifies a checkpoint note and parses its body (tlog-checkpoint: origin line,
// decimal tree size, base64 root hash, then optional extension lines).
func openCheckpoint(file string, verifier note.Verifier) (*checkpoint, error) {
	msg, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	n, err := note.Open(msg, note.VerifierList(verifier))
	if err != nil {
		return nil, fmt.Errorf("signature: %v", err)
	}
	lines := strings.Split(n.Text, "\n")
	if len(lines) < 4 || lines[len(lines)-1] != "" {
		return nil, fmt.Errorf("body must have an origin, a size and a hash line")
	}
	if lines[0] != verifier.Name() {
		return nil, fmt.Errorf("origin %q is not the key's name %q", lines[0], verifier.Name())
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil || size < 0 || strconv.FormatInt(size, 10) != lines[1] {
		return nil, fmt.Errorf("bad tree size %q", lines[1])
	}
	raw, err := base64.StdEncoding.DecodeString(lines[2])
	if err != nil || len(raw) != tlog.HashSize {
		return nil, fmt.Errorf("bad root hash %q", lines[2])
	}
	var h tlog.Hash
	copy(h[:], raw)
	return &checkpoint{origin: lines[0], tree: tlog.Tree{N: size, Hash: h}}, nil
}

// checkEntries reads every entry bundle and checks each entry's record hash against the tiles. It
// returns the tree's stored hashes, computed from the entries alone.
func checkEntries(dir string, size int64, hashes tlog.HashReader, r *report, printEntries bool) (storedHashes, error) {
	var stored storedHashes
	for start := int64(0); start < size; start += tileWidth {
		width := size - start
		if width > tileWidth {
			width = tileWidth
		}
		tile := tlog.Tile{H: tileHeight, L: -1, N: start / tileWidth, W: int(width)}
		data, err := os.ReadFile(filepath.Join(dir, tilePath(tile)))
		if err != nil {
			return nil, err
		}
		entries, err := splitBundle(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", tilePath(tile), err)
		}
		if int64(len(entries)) != width {
			return nil, fmt.Errorf("%s holds %d entries, want %d", tilePath(tile), len(entries), width)
		}
		indexes := make([]int64, width)
		for i := range indexes {
			indexes[i] = tlog.StoredHashIndex(0, start+int64(i))
		}
		inTiles, err := hashes.ReadHashes(indexes)
		if err != nil {
			return nil, err
		}
		for i, e := range entries {
			if tlog.RecordHash(e) != inTiles[i] {
				return nil, fmt.Errorf("entry %d does not match its record hash in the tiles", start+int64(i))
			}
			more, err := tlog.StoredHashes(start+int64(i), e, stored)
			if err != nil {
				return nil, err
			}
			stored = append(stored, more...)
			if printEntries {
				r.Entries = append(r.Entries, string(e))
			}
		}
		r.EntriesChecked += width
	}
	return stored, nil
}

// storedHashes is a tree held in memory, in Go's stored-hash order.
type storedHashes []tlog.Hash

func (s storedHashes) ReadHashes(indexes []int64) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(indexes))
	for i, x := range indexes {
		if x >= int64(len(s)) {
			return nil, fmt.Errorf("no stored hash %d", x)
		}
		out[i] = s[x]
	}
	return out, nil
}

// checkTreeOfEntries checks the tree the entries make: its hash is the checkpoint's, and every tile
// of it is served as it makes it.
func checkTreeOfEntries(dir string, tree tlog.Tree, stored storedHashes) error {
	th, err := tlog.TreeHash(tree.N, stored)
	if err != nil {
		return err
	}
	if th != tree.Hash {
		return fmt.Errorf("the entries hash to %v, the checkpoint says %v", th, tree.Hash)
	}
	tiles := tlog.NewTiles(tileHeight, 0, tree.N)
	for i, tile := range tiles {
		// NewTiles lists every width a partial tile went through; only the widest is served.
		if i+1 < len(tiles) && tiles[i+1].L == tile.L && tiles[i+1].N == tile.N {
			continue
		}
		want, err := tlog.ReadTileData(tile, stored)
		if err != nil {
			return err
		}
		got, err := os.ReadFile(filepath.Join(dir, tilePath(tile)))
		if err != nil {
			return err
		}
		if !bytes.Equal(got, want) {
			return fmt.Errorf("%s is not the tile the entries make", tilePath(tile))
		}
	}
	return nil
}

// splitBundle splits a tlog-tiles entry bundle: each entry is a big-endian uint16 length and then
// that many bytes.
func splitBundle(data []byte) ([][]byte, error) {
	var entries [][]byte
	for len(data) > 0 {
		if len(data) < 2 {
			return nil, fmt.Errorf("truncated length")
		}
		n := int(binary.BigEndian.Uint16(data))
		if len(data) < 2+n {
			return nil, fmt.Errorf("truncated entry")
		}
		entries = append(entries, data[2:2+n])
		data = data[2+n:]
	}
	return entries, nil
}

// checkConsistency proves, from the new tree's tiles, that the new tree extends the older one.
func checkConsistency(file string, verifier note.Verifier, cp *checkpoint, hashes tlog.HashReader) error {
	old, err := openCheckpoint(file, verifier)
	if err != nil {
		return err
	}
	switch {
	case old.tree.N > cp.tree.N:
		return fmt.Errorf("the log has shrunk from %d entries to %d", old.tree.N, cp.tree.N)
	case old.tree.N == cp.tree.N:
		if old.tree.Hash != cp.tree.Hash {
			return fmt.Errorf("two different trees of %d entries (a fork)", cp.tree.N)
		}
		return nil
	case old.tree.N == 0:
		return nil
	}
	proof, err := tlog.ProveTree(cp.tree.N, old.tree.N, hashes)
	if err != nil {
		return err
	}
	if err := tlog.CheckTree(proof, cp.tree.N, cp.tree.Hash, old.tree.N, old.tree.Hash); err != nil {
		return fmt.Errorf("not extended by the new tree (a fork): %v", err)
	}
	return nil
}

// tilePath turns Go's sumdb tile path (tile/8/L/N, tile/8/data/N) into the tlog-tiles one
// (tile/L/N, tile/entries/N): the same N encoding and .p/W suffix, without the height.
func tilePath(t tlog.Tile) string {
	rest := strings.TrimPrefix(t.Path(), fmt.Sprintf("tile/%d/", tileHeight))
	if t.L == -1 {
		rest = "entries" + strings.TrimPrefix(rest, "data")
	}
	return "tile/" + rest
}

type tileReader struct {
	dir   string
	cache map[tlog.Tile][]byte
}

func (t *tileReader) Height() int { return tileHeight }

func (t *tileReader) ReadTiles(tiles []tlog.Tile) ([][]byte, error) {
	out := make([][]byte, len(tiles))
	for i, tile := range tiles {
		if data, ok := t.cache[tile]; ok {
			out[i] = data
			continue
		}
		data, err := os.ReadFile(filepath.Join(t.dir, tilePath(tile)))
		if err != nil {
			return nil, err
		}
		t.cache[tile] = data
		out[i] = data
	}
	return out, nil
}

func (t *tileReader) SaveTiles(tiles []tlog.Tile, data [][]byte) {}

// checkProof reads a C2SP tlog-proof: "c2sp.org/tlog-proof@v1", an optional "extra <base64>" line,
// "index <n>", the inclusion proof's base64 hashes, an empty line, then the checkpoint note verbatim.
// Each proof that holds adds its entry to r.Entries and one to r.EntriesChecked; each that does not, an
// error naming its file.
func checkProof(file, keyFile string, r *report) *report {
	fail := func(format string, args ...interface{}) *report {
		r.Errors = append(r.Errors, file+": "+fmt.Sprintf(format, args...))
		return r
	}
	vkey, err := os.ReadFile(keyFile)
	if err != nil {
		return fail("vkey: %v", err)
	}
	verifier, err := note.NewVerifier(strings.TrimSpace(string(vkey)))
	if err != nil {
		return fail("vkey: %v", err)
	}
	r.KeyName = verifier.Name()
	data, err := os.ReadFile(file)
	if err != nil {
		return fail("proof: %v", err)
	}
	lines := strings.Split(string(data), "\n")
	if lines[0] != "c2sp.org/tlog-proof@v1" {
		return fail("proof: first line %q", lines[0])
	}
	at := 1
	var extra []byte
	if strings.HasPrefix(lines[at], "extra ") {
		if extra, err = base64.StdEncoding.DecodeString(lines[at][len("extra "):]); err != nil {
			return fail("proof: extra: %v", err)
		}
		at++
	}
	if !strings.HasPrefix(lines[at], "index ") {
		return fail("proof: no index line")
	}
	index, err := strconv.ParseInt(lines[at][len("index "):], 10, 64)
	if err != nil {
		return fail("proof: index: %v", err)
	}
	at++
	var proof tlog.RecordProof
	for ; at < len(lines) && lines[at] != ""; at++ {
		h, err := tlog.ParseHash(lines[at])
		if err != nil {
			return fail("proof: line %d: %v", at+1, err)
		}
		proof = append(proof, h)
	}
	if at >= len(lines) {
		return fail("proof: no checkpoint")
	}
	n, err := note.Open([]byte(strings.Join(lines[at+1:], "\n")), note.VerifierList(verifier))
	if err != nil {
		return fail("checkpoint: %v", err)
	}
	body := strings.Split(n.Text, "\n")
	if len(body) < 4 {
		return fail("checkpoint: too few lines")
	}
	size, err := strconv.ParseInt(body[1], 10, 64)
	if err != nil {
		return fail("checkpoint: size: %v", err)
	}
	root, err := tlog.ParseHash(body[2])
	if err != nil {
		return fail("checkpoint: root: %v", err)
	}
	r.Origin, r.Size, r.RootHash = body[0], size, root.String()
	var carried struct {
		Entry string `json:"entry"`
	}
	if err := json.Unmarshal(extra, &carried); err != nil || carried.Entry == "" {
		return fail("proof: the extra carries no entry")
	}
	if err := tlog.CheckRecord(proof, size, root, index, tlog.RecordHash([]byte(carried.Entry))); err != nil {
		return fail("inclusion: %v", err)
	}
	r.EntriesChecked++
	r.Entries = append(r.Entries, carried.Entry)
	return r
}
