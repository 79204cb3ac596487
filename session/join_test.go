package session_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/gen"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/session"
	"github.com/ivc-project/ivc/spec"
)

var update = flag.Bool("update", false, "rewrite the logs of testdata/logs")

// testSig is the signature of the tests: lifelines a, b, c, messages m, n,
// gate g.
func testSig(t testing.TB) *interaction.Signature {
	sig, err := interaction.NewSignature([]string{"a", "b", "c"}, []string{"m", "n"}, []string{"g"})
	if err != nil {
		t.Fatal(err)
	}
	return sig
}

// abpTraces returns the ABP spec's signature, its .htf traces projected on
// one location per lifeline, and their names.
func abpTraces(t *testing.T) (*spec.Spec, []*multitrace.MultiTrace, []string) {
	t.Helper()
	sp, err := spec.Load("../testdata/abp/abp.hsf", "")
	if err != nil {
		t.Fatal(err)
	}
	sig := sp.Sig
	files, err := filepath.Glob("../testdata/abp/traces/*.htf")
	if err != nil || len(files) == 0 {
		t.Fatal(files, err)
	}
	var mts []*multitrace.MultiTrace
	var names []string
	for _, f := range files {
		mt, err := multitrace.Read(f, sig)
		if err != nil {
			t.Fatal(err)
		}
		p := gen.Project(mt.Components[0].Trace, interaction.DiscreteLocations(sig))
		mts = append(mts, &p)
		names = append(names, filepath.Base(f))
	}
	return sp, mts, names
}

// splitLogs writes the multi-traces mts as one log per location (per
// lifeline) in dir, in mixed formats (JSON Lines, CSV, OTLP, JSON Lines
// rotated into two files, the newer named first), and returns the files
// in the order to read them.
func splitLogs(t *testing.T, dir string, sig *interaction.Signature, mts []*multitrace.MultiTrace, ids []string) []string {
	t.Helper()
	formats := []logs.Format{logs.JSONL, logs.CSV, logs.OTLP, logs.JSONL}
	var files []string
	for k := range mts[0].Components {
		f := formats[k%len(formats)]
		var buf bytes.Buffer
		if err := gen.Write(&buf, f, sig, ids, gen.Location(mts, k), int64(k)); err != nil {
			t.Fatal(err)
		}
		name := sig.Lifelines[k]
		write := func(name string, data []byte) {
			p := filepath.Join(dir, name)
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, p)
		}
		switch {
		case k == 3: // rotated: the newer half first
			lines := strings.SplitAfter(buf.String(), "\n")
			half := len(lines) / 2
			write(name+".jsonl", []byte(strings.Join(lines[half:], "")))
			write(name+".1.jsonl", []byte(strings.Join(lines[:half], "")))
		case f == logs.OTLP:
			write(name+".otlp.json", buf.Bytes())
		default:
			write(name+"."+f.String(), buf.Bytes())
		}
	}
	return files
}

// joined reads files with a joiner of the given budget and returns its
// sessions, checking that it spilled or not as expected and that it
// leaves no file in its directory.
func joined(t *testing.T, files []string, opt logs.Options, budget int64, spill bool) []session.Session {
	t.Helper()
	tmp := t.TempDir()
	j, err := session.NewJoiner(opt, budget, tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		in, err := logs.Open(f, logs.Auto, opt)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := j.Read(in, func(err error) { t.Error(err) }); err != nil {
			t.Fatal(err)
		}
		in.Close()
	}
	if j.Spilled() != spill {
		t.Errorf("budget %d: spilled %v", budget, j.Spilled())
	}
	// The spill's files lose their names as they are made (where an open
	// file can, as on Unix): a run ended by SIGINT, SIGTERM or SIGKILL
	// while they are open leaves nothing behind.
	named := func(when string) {
		if left, _ := os.ReadDir(tmp); spill && len(left) > 0 && runtime.GOOS != "windows" {
			t.Errorf("budget %d: %d spill files named in the temporary directory %s", budget, len(left), when)
		}
	}
	named("after reading")
	var out []session.Session
	for s, err := range j.Sessions() {
		if err != nil {
			t.Fatal(err)
		}
		if len(out) == 0 {
			named("while sessions are handed out")
		}
		out = append(out, s)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("budget %d: %d files left in the temporary directory", budget, len(left))
	}
	return out
}

// dumpJoined prints sessions with their files, lines and counts.
func dumpJoined(sig *interaction.Signature, sessions []session.Session) string {
	var b strings.Builder
	for _, s := range sessions {
		fmt.Fprintf(&b, "%s from %s:%d in %s: %d/%d: ", s.ID, filepath.Base(s.File), s.Line, strings.Join(bases(s.Files), ","), s.Events, s.Ignored)
		if s.Err != nil {
			fmt.Fprintf(&b, "error: %v\n", s.Err)
			continue
		}
		b.Write(bytes.Join(bytes.Fields(s.MT.Format(sig)), []byte(" ")))
		b.WriteByte('\n')
	}
	return b.String()
}

func bases(files []string) []string {
	var out []string
	for _, f := range files {
		out = append(out, filepath.Base(f))
	}
	return out
}

// TestJoinSplitLogs splits the ABP traces into one log per service, in
// mixed formats with rotation, and checks that joining them gives back
// every multi-trace, one session each, with and without spilling.
func TestJoinSplitLogs(t *testing.T) {
	sp, mts, names := abpTraces(t)
	sig := sp.Sig
	ids := gen.IDs(logs.OTLP, len(mts), 7) // trace ids, the same session in every format
	files := splitLogs(t, t.TempDir(), sig, mts, ids)
	opt := logs.Options{Sig: sig}
	sessions := joined(t, files, opt, 0, false)
	if len(sessions) != len(mts) {
		t.Fatalf("%d sessions, want %d:\n%s", len(sessions), len(mts), dumpJoined(sig, sessions))
	}
	for i, id := range ids {
		k := slices.IndexFunc(sessions, func(s session.Session) bool { return s.ID == id })
		if k < 0 {
			t.Fatalf("no session %s (%s)", id, names[i])
		}
		s := sessions[k]
		if s.Err != nil || !s.MT.Equal(mts[i]) {
			t.Errorf("session %s (%s): %v\n%s\nwant\n%s", id, names[i], s.Err, s.MT.Format(sig), mts[i].Format(sig))
		}
		if len(s.Files) < 2 {
			t.Errorf("session %s: files %v", id, s.Files)
		}
	}
	want := dumpJoined(sig, sessions)
	for _, budget := range []int64{1, 4000} {
		if got := dumpJoined(sig, joined(t, files, opt, budget, true)); got != want {
			t.Errorf("budget %d, spilled:\n%s\nwant, in memory:\n%s", budget, got, want)
		}
	}
}

// TestJoinOrder: a location's events are ordered by their keys across
// files; one that mixes keys, or comes from two files with line order only,
// is its session's error, and the other sessions are judged.
func TestJoinOrder(t *testing.T) {
	sig := testSig(t)
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	x := write("x.jsonl", `{"session":"s1","action":"a!m","seq":2}
{"session":"s2","action":"a!m"}
{"session":"s3","action":"a!m","seq":1}
{"session":"s4","action":"a!m","seq":1}
{"session":"s4","action":"b?m","seq":1}
`)
	y := write("y.csv", `session,action,seq,time
s1,a!n,1,
s2,a!n,,
s3,a!n,,5
s4,b?n,2,
s1,b?m,,
s5,c?m,,
`)
	opt := logs.Options{Sig: sig}
	want := `s1 from x.jsonl:1 in x.jsonl,y.csv: 3/0: { [a] a!n.a!m; [b] b?m; [c] ; }
s2 from x.jsonl:2 in x.jsonl,y.csv: 2/0: error: ` + y + `:3: session "s2", location [a]: events in 2 files (` + x + `, ` + y + `) with neither seq nor time: their order across files is unknown (give the events a seq or a time)
s3 from x.jsonl:3 in x.jsonl,y.csv: 2/0: error: ` + y + `:4: session "s3", location [a]: mixed order keys: this event has a numeric time, the one at ` + x + `:3 has a seq (the events of a location are ordered by seq, by time, or by line)
s4 from x.jsonl:4 in x.jsonl,y.csv: 3/0: { [a] a!m; [b] b?m.b?n; [c] ; }
s5 from y.csv:7 in y.csv: 1/0: { [a] ; [b] ; [c] c?m }
`
	for _, budget := range []int64{0, 1} {
		if got := dumpJoined(sig, joined(t, []string{x, y}, opt, budget, budget > 0)); got != want {
			t.Errorf("budget %d:\n%s\nwant\n%s", budget, got, want)
		}
	}
}

// TestJoinFiles: a session's Files are the inputs that hold its events in
// the order read, whether they follow one another or it skips one, and
// appending to them touches neither the inputs nor another session's.
func TestJoinFiles(t *testing.T) {
	sig := testSig(t)
	dir := t.TempDir()
	var paths []string
	for i, data := range []string{
		`{"session":"s1","action":"a!m","seq":1}` + "\n" + `{"session":"s2","action":"a!m","seq":1}` + "\n",
		`{"session":"s1","action":"b?m","seq":1}` + "\n" + `{"session":"s3","action":"b?m","seq":1}` + "\n",
		`{"session":"s2","action":"c?m","seq":1}` + "\n" + `{"session":"s1","action":"c?m","seq":1}` + "\n" + `{"session":"s3","action":"c?m","seq":1}` + "\n",
	} {
		p := filepath.Join(dir, fmt.Sprintf("f%d.jsonl", i))
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	for _, budget := range []int64{0, 1} {
		got := map[string][]string{}
		sessions := joined(t, paths, logs.Options{Sig: sig}, budget, budget > 0)
		for _, s := range sessions {
			got[s.ID] = bases(s.Files)
		}
		want := map[string][]string{"s1": {"f0.jsonl", "f1.jsonl", "f2.jsonl"}, "s2": {"f0.jsonl", "f2.jsonl"}, "s3": {"f1.jsonl", "f2.jsonl"}}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("budget %d: files %v, want %v", budget, got, want)
		}
		for _, s := range sessions {
			_ = append(s.Files, "appended")
		}
		for _, s := range sessions {
			if b := bases(s.Files); !reflect.DeepEqual(b, want[s.ID]) {
				t.Errorf("budget %d: session %s: files %v after appending to the others', want %v", budget, s.ID, b, want[s.ID])
			}
		}
	}
}

// TestABPServiceLogs checks the per-service logs shipped in
// testdata/logs/services (the ABP traces, one log per service, each with
// its own clock; R's rotated into two files): joined, they hold the ABP
// traces and get the verdicts of the .htf files. With -update, it writes
// them again.
func TestABPServiceLogs(t *testing.T) {
	sp, mts, names := abpTraces(t)
	sig := sp.Sig
	ids := make([]string, len(names))
	for i, n := range names {
		ids[i] = strings.TrimSuffix(n, ".htf")
	}
	dir := filepath.Join("..", "testdata", "logs", "services")
	formats := map[string]logs.Format{"S": logs.JSONL, "K": logs.CSV, "L": logs.JSONL, "R": logs.JSONL}
	if *update {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for k, l := range sig.Lifelines {
			f := formats[l]
			var buf bytes.Buffer
			if err := gen.Write(&buf, f, sig, ids, gen.Location(mts, k), int64(k+1)); err != nil {
				t.Fatal(err)
			}
			files := map[string][]byte{l + "." + f.String(): buf.Bytes()}
			if l == "R" { // rotated: R.1.jsonl holds the older half
				lines := strings.SplitAfter(buf.String(), "\n")
				half := len(lines) / 2
				files = map[string][]byte{"R.1.jsonl": []byte(strings.Join(lines[:half], "")), "R.jsonl": []byte(strings.Join(lines[half:], ""))}
			}
			for name, data := range files {
				if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil || len(files) != 5 {
		t.Fatal(files, err)
	}
	sessions := joined(t, files, logs.Options{Sig: sig}, 0, false)
	if len(sessions) != len(ids) {
		t.Fatalf("%d sessions, want %d", len(sessions), len(ids))
	}
	for i, id := range ids {
		k := slices.IndexFunc(sessions, func(s session.Session) bool { return s.ID == id })
		if k < 0 || sessions[k].Err != nil || !sessions[k].MT.Equal(mts[i]) {
			t.Errorf("session %s is not %s projected", id, names[i])
		}
	}
}

// TestJoinTraceIDs: a trace seen in an OTLP file (32 hex digits) and in a
// Jaeger file, whose trace ids are 64 bits (16 hex digits, the high half
// zero) or in upper case, is one session; so is a JSON Lines session
// written as OTLP's id.
func TestJoinTraceIDs(t *testing.T) {
	sig := testSig(t)
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	otlpSpan := func(trace, span, service, name string, start int) string {
		return `{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"` + service +
			`"}}]},"scopeSpans":[{"spans":[{"traceId":"` + trace + `","spanId":"` + span + `","name":"` + name +
			`","kind":4,"startTimeUnixNano":"` + fmt.Sprint(start) + `"}]}]}]}` + "\n"
	}
	jaegerSpan := func(trace, span, op string, start int) string {
		return `{"traceID":"` + trace + `","spanID":"` + span + `","operationName":"` + op +
			`","startTime":` + fmt.Sprint(start) + `,"tags":[{"key":"span.kind","type":"string","value":"consumer"}],"processID":"p1"}`
	}
	const short, long = "00f067aa0ba902b7", "4bf92f3577b34da6a3ce929d0e0e4736"
	files := []string{
		write("a.otlp.json", otlpSpan("0000000000000000"+short, "00000000000000a1", "a", "m", 10)+
			otlpSpan(long, "00000000000000a2", "a", "n", 10)),
		write("b.jaeger.json", `{"data":[{"traceID":"`+strings.ToUpper(short)+`","spans":[`+jaegerSpan(strings.ToUpper(short), "b1", "m", 20)+
			`],"processes":{"p1":{"serviceName":"b"}}},{"traceID":"`+strings.ToUpper(long)+`","spans":[`+jaegerSpan(strings.ToUpper(long), "b2", "n", 20)+
			`],"processes":{"p1":{"serviceName":"b"}}}]}`+"\n"),
		write("c.jsonl", `{"session":"`+"0000000000000000"+short+`","action":"c!m","seq":1}`+"\n"),
	}
	sessions := joined(t, files, logs.Options{Sig: sig}, 0, false)
	got := dumpJoined(sig, sessions)
	want := "0000000000000000" + short + " from a.otlp.json:1 in a.otlp.json,b.jaeger.json,c.jsonl: 3/0: { [a] a!m; [b] b?m; [c] c!m }\n" +
		long + " from a.otlp.json:2 in a.otlp.json,b.jaeger.json: 2/0: { [a] a!n; [b] b?n; [c] ; }\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestJoinSpillDirMissing checks that a spill into a directory that does
// not exist fails the read that passes the budget, with an error that says
// it is the spill's (not the log's) and names the directory's flag.
func TestJoinSpillDirMissing(t *testing.T) {
	sig := testSig(t)
	x := filepath.Join(t.TempDir(), "x.jsonl")
	if err := os.WriteFile(x, []byte(`{"session":"s1","action":"a!m"}
{"session":"s2","action":"a!m"}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := joinOne(t, logs.Options{Sig: sig}, 1, filepath.Join(t.TempDir(), "missing"), x, func(err error) { t.Error(err) })
	if err == nil || !strings.HasPrefix(err.Error(), x+": spilling sessions to disk: ") || !strings.HasSuffix(err.Error(), "no such file or directory (see --tmp-dir)") {
		t.Fatalf("got %v, want an error of spilling naming --tmp-dir", err)
	}
}

// TestJoinSpillMalformed: the sessions of malformed events only (their
// session readable, the rest not) count in the budget as any other: past
// it, they are spilled, and each is still handed out with its count.
func TestJoinSpillMalformed(t *testing.T) {
	sig := testSig(t)
	x := filepath.Join(t.TempDir(), "x.jsonl")
	var b strings.Builder
	const n = 2000
	for i := range n {
		fmt.Fprintf(&b, `{"session":"s%d","action":"a!m","seq":"x"}`+"\n", i)
	}
	if err := os.WriteFile(x, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	j, err := joinOne(t, logs.Options{Sig: sig}, 16<<10, t.TempDir(), x, func(error) {})
	if err != nil {
		t.Fatal(err)
	}
	if !j.Spilled() {
		t.Errorf("%d sessions of malformed events held, past a budget of 16 KiB: none spilled", n)
	}
	got := 0
	for s, err := range j.Sessions() {
		if err != nil {
			t.Fatal(err)
		}
		if s.Dropped != 1 {
			t.Errorf("session %s: %d dropped, want 1", s.ID, s.Dropped)
		}
		got++
	}
	if got != n {
		t.Errorf("%d sessions, want %d", got, n)
	}
}

// joinOne reads the log x with a Joiner of the memory budget budget that
// spills to dir (closed at the test's end), and returns it with Read's
// error.
func joinOne(t *testing.T, opt logs.Options, budget int64, dir, x string, report func(error)) (*session.Joiner, error) {
	t.Helper()
	j, err := session.NewJoiner(opt, budget, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	in, err := logs.Open(x, logs.Auto, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	_, err = j.Read(in, report)
	return j, err
}

// TestJoinSpillLongSession: a session of more events than a run's block
// of records holds (runRecords), its events in two files among other
// sessions, is handed out spilled as in memory.
func TestJoinSpillLongSession(t *testing.T) {
	sig := testSig(t)
	dir := t.TempDir()
	var files []string
	for f, act := range []string{"a!m", "b?m"} {
		var b strings.Builder
		for i := range 3000 {
			fmt.Fprintf(&b, `{"session":"long","action":"%s","seq":%d}`+"\n", act, i)
			if i%7 == 0 {
				fmt.Fprintf(&b, `{"session":"s%d","action":"%s","seq":1}`+"\n", i, act)
			}
		}
		files = append(files, filepath.Join(dir, fmt.Sprintf("f%d.jsonl", f)))
		if err := os.WriteFile(files[f], []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	opt := logs.Options{Sig: sig}
	want := dumpJoined(sig, joined(t, files, opt, 0, false))
	if !strings.Contains(want, "long from f0.jsonl:1 in f0.jsonl,f1.jsonl: 6000/0: ") {
		t.Fatalf("in memory, no session long of 6000 events:\n%.500s", want)
	}
	if got := dumpJoined(sig, joined(t, files, opt, 64<<10, true)); got != want {
		t.Errorf("spilled:\n%.2000s\nwant, in memory:\n%.2000s", got, want)
	}
}
