package logs_test

import (
	"bytes"
	"runtime"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/session"
)

// TestZstdBomb: a small zstd file that decompresses to far more than the
// input limit ends in an error naming the file, and reading it holds
// little memory, whatever its frame says of its size.
func TestZstdBomb(t *testing.T) {
	bomb := zstdOf(t, make([]byte, 64<<20))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, _, err := session.ReadFrom("bomb.jsonl.zst", bytes.NewReader(bomb), logs.Auto, logs.Options{Sig: testSig(t), MaxBytes: 1 << 20}, nil)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "bomb.jsonl.zst: larger than 1048576 bytes") {
		t.Errorf("a zstd bomb of %d bytes: %v", len(bomb), err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 16<<20 {
		t.Errorf("reading a zstd bomb allocated %d bytes", n)
	} else {
		t.Logf("%d bytes of zstd, %d bytes allocated to read them", len(bomb), n)
	}
}

// TestZstdErrors: a frame that asks for a window larger than reading may
// hold, and a cut file, are errors naming the file; a line longer than
// the limit is reported and skipped, as in a plain file.
func TestZstdErrors(t *testing.T) {
	// A frame header asking for a window of 1 GiB (exponent 20), then one
	// raw block of one byte.
	huge := []byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, 20 << 3, 0x09, 0x00, 0x00, 'x'}
	log := strings.Repeat(`{"session":"s1","action":"a!m"}`+"\n", 3)
	for _, c := range []struct {
		name string
		in   []byte
		err  string
	}{
		{"window.jsonl.zst", huge, "window.jsonl.zst: zstd-compressed with a window larger than ivc holds to decompress it"},
		{"cut.jsonl.zst", zstdOf(t, []byte(log))[:20], "cut.jsonl.zst: zstd-compressed content: unexpected EOF"},
	} {
		_, _, err := session.ReadFrom(c.name, bytes.NewReader(c.in), logs.Auto, logs.Options{Sig: testSig(t)}, nil)
		if err == nil || !strings.HasPrefix(err.Error(), c.err) {
			t.Errorf("%s: %v, want %s", c.name, err, c.err)
		}
	}
	defer logs.SetMaxLine(1 << 20)()
	long := zstdOf(t, []byte(`{"action":"a!m","pad":"`+strings.Repeat("x", 2<<20)+"\"}\n"+log))
	var reports []string
	sessions, st, err := session.ReadFrom("long.jsonl.zst", bytes.NewReader(long), logs.Auto, logs.Options{Sig: testSig(t)},
		func(err error) { reports = append(reports, err.Error()) })
	if err != nil || len(sessions) != 1 || st.Events != 3 || len(reports) != 1 || reports[0] != "long.jsonl.zst:1: line longer than 1048576 bytes (--max-line raises it)" {
		t.Errorf("%+v %v %q", st, err, reports)
	}
}
