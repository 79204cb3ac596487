package pipeline

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/session"
)

// What travels between the steps, in compact binary forms:
//
//   - a batch (scan → judge, keyed by bucket) is sessions one after the
//     other, each its key (sessionKey) then its events, each after its
//     length;
//   - the events of a session are encoded events (session.AppendEvent,
//     without the session id, which the key says), each after its length;
//   - a blob of lines (scan, judge → write, keyed by output file) is
//     encoded outLines, each after its length.

// sessionKey is the key of a session in a batch: its file and its id,
// which read back apart (splitSessionKey).
func sessionKey(file, id string) string { return session.ScopeFile.Key(file, id) }

func splitSessionKey(k string) (file, id string, err error) {
	n, rest, ok := strings.Cut(k, ":")
	l, err := strconv.Atoi(n)
	if !ok || err != nil || l < 0 || l > len(rest) {
		return "", "", fmt.Errorf("invalid session key %q", k)
	}
	return rest[:l], rest[l:], nil
}

// bucketOf returns the bucket of the session key among n.
func bucketOf(key string, n int) int {
	h := fnv.New32a()
	h.Write([]byte(key))
	return int(h.Sum32() % uint32(n))
}

var errEncoding = errors.New("invalid encoding")

// appendChunk appends data to b after its length.
func appendChunk(b, data []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(data)))
	return append(b, data...)
}

// nextChunk splits the first chunk (appendChunk) off b.
func nextChunk(b []byte) (chunk, rest []byte, err error) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k) {
		return nil, nil, errEncoding
	}
	return b[k : k+int(n)], b[k+int(n):], nil
}

// forSessions calls fn with the key and the events of each session of a
// batch.
func forSessions(batch []byte, fn func(key string, events []byte) error) error {
	for len(batch) > 0 {
		key, rest, err := nextChunk(batch)
		if err != nil {
			return err
		}
		events, rest, err := nextChunk(rest)
		if err != nil {
			return err
		}
		if err := fn(string(key), events); err != nil {
			return err
		}
		batch = rest
	}
	return nil
}

// forEvents calls fn with each event of session id.
func forEvents(events []byte, id string, fn func(logs.Event)) error {
	for len(events) > 0 {
		chunk, rest, err := nextChunk(events)
		if err != nil {
			return err
		}
		e, err := session.DecodeEvent(chunk)
		if err != nil {
			return err
		}
		e.Session = id
		fn(e)
		events = rest
	}
	return nil
}

// batcher gathers the events of a file by session, and sends them on,
// by bucket, when they take batchBytes, and at the end.
type batcher struct {
	emit    func(int, []byte)
	file    string
	buckets int
	scope   session.Scope

	sessions map[string][]byte
	size     int
	scratch  []byte
}

// batchBytes is how much of a file's events a batcher keeps before
// sending them on.
const batchBytes = 16 << 20

// add adds e to the events of its session.
func (b *batcher) add(e logs.Event) {
	if b.sessions == nil {
		b.sessions = map[string][]byte{}
	}
	id := e.Session
	e.Session = ""
	b.scratch = session.AppendEvent(b.scratch[:0], e)
	buf := b.sessions[id]
	n := len(buf)
	buf = appendChunk(buf, b.scratch)
	b.sessions[id] = buf
	if b.size += len(buf) - n; b.size >= batchBytes {
		b.flush()
	}
}

// flush sends the sessions gathered, one batch per bucket.
func (b *batcher) flush() {
	batches := map[int][]byte{}
	for id, events := range b.sessions {
		// A session's events meet in the bucket of its key: with
		// ScopeRun, its id alone, across files.
		k := bucketOf(b.scope.Key(b.file, id), b.buckets)
		batches[k] = appendChunk(appendChunk(batches[k], []byte(sessionKey(b.file, id))), events)
	}
	for k, batch := range batches {
		b.emit(k, batch)
	}
	clear(b.sessions)
	b.size = 0
}

// outLine is a line of an output file: a record (JSON) or an error, and
// where it comes from, for sorting.
type outLine struct {
	File  string
	Line  int
	Index int // of the session's first event in its file (several spans share a line)
	Text  string
}

func (l outLine) appendBinary(b []byte) []byte {
	b = appendChunk(b, []byte(l.File))
	b = binary.AppendUvarint(b, uint64(l.Line))
	b = binary.AppendUvarint(b, uint64(l.Index))
	return appendChunk(b, []byte(l.Text))
}

// forLines calls fn with each line of a blob.
func forLines(blob []byte, fn func(outLine)) error {
	for len(blob) > 0 {
		file, rest, err := nextChunk(blob)
		if err != nil {
			return err
		}
		line, k := binary.Uvarint(rest)
		if k <= 0 {
			return errEncoding
		}
		index, j := binary.Uvarint(rest[k:])
		if j <= 0 {
			return errEncoding
		}
		text, rest, err := nextChunk(rest[k+j:])
		if err != nil {
			return err
		}
		fn(outLine{File: string(file), Line: int(line), Index: int(index), Text: string(text)})
		blob = rest
	}
	return nil
}

// The kinds of output files.
const (
	sessionsFile = iota
	errorsFile
)

// lineBatcher gathers lines by output file (kind and shard), and sends
// them on as blobs when they take batchBytes, and at the end.
type lineBatcher struct {
	emit   func(int, []byte)
	shards int
	blobs  map[int][]byte
	size   int
}

// add adds l to a file of kind: its shard is a hash of l.
func (lb *lineBatcher) add(kind int, l outLine) {
	if lb.blobs == nil {
		lb.blobs = map[int][]byte{}
	}
	h := fnv.New32a()
	h.Write([]byte(l.File))
	h.Write(binary.AppendUvarint(nil, uint64(l.Index)))
	h.Write([]byte(l.Text))
	k := kind*lb.shards + int(h.Sum32()%uint32(lb.shards))
	n := len(lb.blobs[k])
	lb.blobs[k] = l.appendBinary(lb.blobs[k])
	if lb.size += len(lb.blobs[k]) - n; lb.size >= batchBytes {
		lb.flush()
	}
}

func (lb *lineBatcher) flush() {
	for k, blob := range lb.blobs {
		lb.emit(k, blob)
	}
	clear(lb.blobs)
	lb.size = 0
}
