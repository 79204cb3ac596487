package logs_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/session"
)

// TestOpen opens inputs of every kind the drivers meet: plain and gzip
// logs, a .htf multi-trace, a log named by content only, and reads each
// the way its format says.
func TestOpen(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	sig := testSig(t)
	log := `{"session":"s1","action":"a!m"}` + "\n" + `{"session":"s2","action":"b?m"}` + "\n"
	htf := "{ [a] a!m; [b] b?m.b?n; [c] }"
	for _, c := range []struct {
		name string
		data []byte
		f    logs.Format
		want logs.Format
		dump string
	}{
		{"x.jsonl", []byte(log), logs.Auto, logs.JSONL, "s1 s2"},
		{"x.jsonl.gz", gz(t, log), logs.Auto, logs.JSONL, "s1 s2"},
		{"x.log.gz", gz(t, log), logs.Auto, logs.JSONL, "s1 s2"}, // by content, decompressed
		{"x.data", []byte("\ufeff" + log), logs.JSONL, logs.JSONL, "s1 s2"},
		{"x.htf", []byte(htf), logs.Auto, logs.HTF, "{ [a] a!m; [b] b?m.b?n; [c] ; }"},
		{"x.htf.gz", gz(t, htf), logs.Auto, logs.HTF, "{ [a] a!m; [b] b?m.b?n; [c] ; }"},
		{"x.txt", []byte(htf), logs.HTF, logs.HTF, "{ [a] a!m; [b] b?m.b?n; [c] ; }"},
	} {
		path := write(c.name, c.data)
		in, err := logs.Open(path, c.f, logs.Options{Sig: sig})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if in.Name != path || in.Format != c.want {
			t.Errorf("%s: name %q, format %v; want %v", c.name, in.Name, in.Format, c.want)
		}
		var got string
		if in.Format == logs.HTF {
			mt, err := in.MultiTrace()
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
				continue
			}
			got = strings.Join(strings.Fields(string(mt.Format(sig))), " ")
		} else {
			sessions, _, err := session.ReadInput(in, nil)
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
				continue
			}
			var ids []string
			for _, s := range sessions {
				ids = append(ids, s.ID)
			}
			got = strings.Join(ids, " ")
		}
		if got != c.dump {
			t.Errorf("%s: read %q, want %q", c.name, got, c.dump)
		}
		if _, _, err := session.ReadInput(in, nil); err == nil || !strings.Contains(err.Error(), "read twice") {
			t.Errorf("%s: a second read: %v", c.name, err)
		}
		if err := in.Close(); err != nil {
			t.Errorf("%s: close: %v", c.name, err)
		}
	}
}

// TestOpenErrors checks the errors of an input as a whole: each names the
// input.
func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	sig := testSig(t)
	htf := filepath.Join(dir, "x.htf")
	if err := os.WriteFile(htf, []byte("{ [a] a!m }"), 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := logs.Open(htf, logs.Auto, logs.Options{Sig: sig, Locations: []interaction.Lifelines{interaction.LifelinesOf(0, 1)}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := in.MultiTrace(); err == nil || !strings.Contains(err.Error(), "x.htf: a .htf multi-trace has its own locations") {
		t.Errorf("a .htf with locations: %v", err)
	}
	in.Close()
	if _, err := logs.Open(filepath.Join(dir, "missing.jsonl"), logs.Auto, logs.Options{Sig: sig}); err == nil || !strings.Contains(err.Error(), "missing.jsonl: no such file") {
		t.Errorf("a missing file: %v", err)
	}
	if _, err := logs.NewInput("big.htf", bytes.NewReader(gz(t, strings.Repeat(" ", 1000))), logs.Auto, logs.Options{Sig: sig, MaxBytes: 100}); err == nil || !strings.Contains(err.Error(), "big.htf: larger than 100 bytes") {
		t.Errorf("a gzip bomb: %v", err)
	}
	in, err = logs.NewInput("x.jsonl", strings.NewReader(`{"session":"s","action":"a!m"}`), logs.Auto, logs.Options{Sig: sig})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := in.MultiTrace(); err == nil || !strings.Contains(err.Error(), "x.jsonl: a jsonl log is not a .htf multi-trace") {
		t.Errorf("a log read as a .htf: %v", err)
	}
}

func TestExtensions(t *testing.T) {
	for _, c := range []struct {
		f    logs.Format
		want string
	}{
		{logs.Auto, ".htf .jsonl .ndjson .json .htf.gz .jsonl.gz .ndjson.gz .json.gz"},
		{logs.CSV, ".csv .tsv .csv.gz .tsv.gz"},
		{logs.OTLP, ".json .json.gz"},
		{logs.HTF, ".htf .htf.gz"},
	} {
		if got := strings.Join(logs.Extensions(c.f), " "); got != c.want {
			t.Errorf("Extensions(%v) = %q, want %q", c.f, got, c.want)
		}
	}
	exts := logs.Extensions(logs.Auto)
	for name, want := range map[string]bool{
		"a/x.jsonl": true, "x.JSONL.GZ": true, "x.htf": true, "x.gz": false, ".jsonl": false,
		"x.json": true, "x.htf.gz": true, "x.jsonl.bak": false, "x.csv": false,
	} {
		if got := logs.HasExtension(name, exts...); got != want {
			t.Errorf("HasExtension(%q) = %v, want %v", name, got, want)
		}
	}
	if !slices.Contains(logs.Extensions(logs.Jaeger), ".json.gz") {
		t.Errorf("Jaeger: %v", logs.Extensions(logs.Jaeger))
	}
}

// TestRecognize: the files a directory stands for, by extension or
// content, and what recognition detected of their format, which opening
// them does not decide again.
func TestRecognize(t *testing.T) {
	dir := t.TempDir()
	for name, c := range map[string]struct {
		data     string
		want     bool
		detected logs.Format
	}{
		"a.jsonl":        {"", true, logs.Auto}, // by its extension: its content decides when it is opened
		"x.htf":          {"{ [a] a!m }", true, logs.HTF},
		"svc.log":        {`{"session":"s","action":"a!m"}` + "\n", true, logs.JSONL},
		"trace.json":     {`{"resourceSpans":[]}`, true, logs.Auto},
		"trace.txt":      {`{"resourceSpans":[]}`, true, logs.OTLP},
		"events.csv":     {"session,lifeline,kind,message\ns,a,send,m\n", true, logs.CSV},
		"verdicts.tsv":   {"file\tverdict\nx\tPass\n", false, logs.Auto},
		"notes.txt":      {"some notes: not a log\n", false, logs.Auto},
		"data.json":      {`{"total":3}`, true, logs.Auto}, // by its extension: reading it says it is no trace
		"renamed.csv.gz": {string(gz(t, "trace,act\nt,a!m\n")), false, logs.Auto},
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(c.data), 0o644); err != nil {
			t.Fatal(err)
		}
		detected, ok := logs.Recognize(p, logs.Auto, logs.Options{})
		if ok != c.want || detected != c.detected {
			t.Errorf("Recognize(%s) = %v, %v; want %v, %v", name, detected, ok, c.detected, c.want)
		}
		if !ok {
			continue
		}
		// Opened with what recognition detected, the file has the format
		// Open detects.
		in, err := logs.OpenDetected(p, detected, logs.Options{Sig: testSig(t)})
		want, werr := logs.Open(p, logs.Auto, logs.Options{Sig: testSig(t)})
		switch {
		case (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error():
			t.Errorf("OpenDetected(%s): %v; Open: %v", name, err, werr)
		case err == nil && in.Format != want.Format:
			t.Errorf("OpenDetected(%s): %v; Open: %v", name, in.Format, want.Format)
		}
		for _, in := range []*logs.Input{in, want} {
			if in != nil {
				in.Close()
			}
		}
	}
	p := filepath.Join(dir, "renamed.csv.gz")
	if detected, ok := logs.Recognize(p, logs.Auto, logs.Options{Fields: map[string]string{"action": "act"}}); !ok || detected != logs.CSV {
		t.Errorf("Recognize(%s) with --field action=act: %v, %v", p, detected, ok)
	}
	if detected, ok := logs.Recognize(filepath.Join(dir, "x.htf"), logs.HTF, logs.Options{}); !ok || detected != logs.Auto {
		t.Errorf("Recognize(x.htf) with the format given: %v, %v (nothing to detect)", detected, ok)
	}
	for name, want := range map[string]logs.Format{"a/x.htf": logs.HTF, "x.HTF.gz": logs.HTF, "x.jsonl": logs.Auto, "x.htf.bak": logs.Auto, "-": logs.Auto} {
		if got := logs.DetectName(name); got != want {
			t.Errorf("DetectName(%s) = %v, want %v", name, got, want)
		}
	}
}

// TestUndeclared tallies the names outside the signature, and finds the
// declared names they are likely misspellings of.
func TestUndeclared(t *testing.T) {
	sig := testSig(t)
	log := `{"action":"a!mm"}` + "\n" + `{"action":"a!mm"}` + "\n" + `{"action":"gateway!m"}` + "\n" + `{"action":"a!m"}` + "\n"
	in, err := logs.NewInput("x.jsonl", strings.NewReader(log), logs.Auto, logs.Options{Sig: sig})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := session.ReadInput(in, nil); err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(in.Undeclared())
	if want := "[{false mm  2} {true gateway  1}]"; got != want {
		t.Errorf("%s, want %s", got, want)
	}
	for name, want := range map[string]string{"mm": "m", "gateway": "", "A": "a", "nn": "n", "xyz": ""} {
		if got := logs.Nearest(name, append(sig.Lifelines, sig.Messages...)); got != want {
			t.Errorf("Nearest(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestSmallInputBuffers: opening and reading a small file takes buffers
// of about its size, not the 64 KiB chunk a log of unknown size gets: a
// run of many small .htf files (a corpus of multi-traces) allocated 64 KiB
// for each, which the collector then spent its time on.
func TestSmallInputBuffers(t *testing.T) {
	dir := t.TempDir()
	sig := testSig(t)
	htf := filepath.Join(dir, "small.htf")
	data := []byte("{ [a] a!m ; [b] b?m ; [c] }\n")
	if err := os.WriteFile(htf, data, 0o644); err != nil {
		t.Fatal(err)
	}
	read := func() {
		in, err := logs.Open(htf, logs.Auto, logs.Options{Sig: sig})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := in.MultiTrace(); err != nil {
			t.Fatal(err)
		}
		in.Close()
	}
	read()
	const n = 50
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range n {
		read()
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / n; per > 16<<10 {
		t.Errorf("opening and reading a %d-byte .htf file allocates %d bytes", len(data), per)
	}
}
