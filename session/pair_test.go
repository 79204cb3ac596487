package session_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/session"
)

// The spans of these tests, in OTLP/JSON and in Jaeger's JSON.

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// otlpLine returns a TracesData object of one resource (service) and spans.
func otlpLine(service string, spans ...string) string {
	return `{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"` + service +
		`"}}]},"scopeSpans":[{"spans":[` + strings.Join(spans, ",") + `]}]}]}`
}

// linkedSpan returns a span of OTLP/JSON with its id, parent and links.
func linkedSpan(trace, id, parent, kind, name string, start int64, attrs, links string) string {
	return `{"traceId":"` + trace + `","spanId":"` + id + `","parentSpanId":"` + parent + `","name":"` + name + `","kind":` + kind +
		`,"startTimeUnixNano":"` + itoa(start) + `","attributes":[` + attrs + `],"links":[` + links + `]}`
}

func dest(m string) string {
	return `{"key":"messaging.destination.name","value":{"stringValue":"` + m + `"}}`
}

const (
	t1 = "0af7651916cd43dd8448eb211c80319c"
	t2 = "4bf92f3577b34da6a3ce929d0e0e4736"
	c1 = "00000000000000c1"
	s1 = "00000000000000a1"
	p1 = "00000000000000b1"
	k1 = "00000000000000d1"
)

// jaegerTrace returns a Jaeger trace of spans, with processes p1, p2, p3
// of services a, b, c.
func jaegerTrace(trace string, spans ...string) string {
	return `{"traceID":"` + trace + `","spans":[` + strings.Join(spans, ",") +
		`],"processes":{"p1":{"serviceName":"a"},"p2":{"serviceName":"b"},"p3":{"serviceName":"c"}}}`
}

// jaegerSpan returns a span of Jaeger JSON, its start in µs.
func jaegerSpan(trace, id, op, kind string, start int, proc, tags, refs string) string {
	if tags != "" {
		tags = "," + tags
	}
	return `{"traceID":"` + trace + `","spanID":"` + id + `","operationName":"` + op + `","references":[` + refs + `],"startTime":` +
		itoa(int64(start)) + `,"tags":[{"key":"span.kind","type":"string","value":"` + kind + `"}` + tags + `],"processID":"` + proc + `"}`
}

// TestJoinLinkedSpans: a client span in one service's OTLP file and its
// server span in another's Jaeger file are paired as if in one file, when
// the sessions are joined across the files of a run: by a Joiner (in
// memory and spilling) and by Scan and Assemble (ivc-beam, the monitor).
func TestJoinLinkedSpans(t *testing.T) {
	const t3 = "33333333333333333333333333333333"
	dir := t.TempDir()
	gateway := filepath.Join(dir, "gateway.jsonl")
	services := filepath.Join(dir, "services.json")
	childOf := func(trace, id string) string {
		return `{"refType":"CHILD_OF","traceID":"` + trace + `","spanID":"` + id + `"}`
	}
	route := `{"key":"http.route","type":"string","value":"n"}`
	write := func(name, data string) {
		if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(gateway, otlpLine("a",
		linkedSpan(t1, c1, "", "3", "HTTP GET", 10e9, "", ""),       // CLIENT of b's SERVER s1
		linkedSpan(t2, c1, "", "3", "HTTP GET", 20e9, "", ""))+"\n"+ // CLIENT, a request lost
		otlpLine("c", linkedSpan(t1, k1, "", "5", "process", 12e9, dest("m"), `{"traceId":"`+t1+`","spanId":"`+p1+`"}`))+"\n") // CONSUMER of b's PRODUCER p1
	write(services, `{"data":[`+jaegerTrace(t1,
		jaegerSpan(t1, s1[8:], "GET /n", "server", 9e6, "p2", route, childOf(t1, c1)), // b's clock 1 s behind a's
		jaegerSpan(t1, p1, "publish", "producer", 9.5e6, "p2", "", childOf(t1, s1)))+","+
		jaegerTrace(t3, jaegerSpan(t3, "a3", "n", "server", 30e6, "p2", "", childOf(t3, "ff")))+ // a reception nobody sent
		"]}\n")
	sig := testSig(t)
	opt := logs.Options{Sig: sig}
	files := []string{gateway, services}
	want := t1 + " from gateway.jsonl:1 in gateway.jsonl,services.json: 4/0: { [a] a!n; [b] b?n.b!m; [c] c?m }\n" +
		t2 + " from gateway.jsonl:1 in gateway.jsonl: 0/1: { [a] ; [b] ; [c] ; }\n" +
		t3 + " from services.json:1 in services.json: 1/0: { [a] ; [b] b?n; [c] ; }\n"
	for _, budget := range []int64{0, 1} {
		if got := dumpJoined(sig, joined(t, files, opt, budget, budget > 0)); got != want {
			t.Errorf("budget %d:\n%s\nwant\n%s", budget, got, want)
		}
	}
	// Only the lost request's client stays outside the signature.
	j, err := session.NewJoiner(opt, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		in, err := logs.Open(f, logs.Auto, opt)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := j.Read(in, nil); err != nil {
			t.Fatal(err)
		}
		if u := in.Undeclared(); len(u) > 0 {
			t.Errorf("%s: undeclared %v before assembly", f, u)
		}
		in.Close()
	}
	for range j.Sessions() {
	}
	if u := j.Undeclared(); !reflect.DeepEqual(u, []logs.Undeclared{{Name: "HTTP GET", Events: 1}}) {
		t.Errorf("undeclared %v", u)
	}

	// Scan and Assemble, the events of a session from both files.
	groups, order := scanGroups(t, files, opt)
	a, got := assembleGroups(t, opt, groups, order)
	if d := dumpJoined(sig, got); d != want {
		t.Errorf("Scan and Assemble:\n%s\nwant\n%s", d, want)
	}
	// Assembled in turn in one Scratch, each session kept as it was.
	var sc session.Scratch
	var again []session.Session
	for _, id := range order {
		s, err := a.AssembleWith(&sc, "", id, groups[id])
		if err != nil {
			t.Fatal(err)
		}
		again = append(again, s)
	}
	if d := dumpJoined(sig, again); d != want || !reflect.DeepEqual(again, got) {
		t.Errorf("Scan and AssembleWith:\n%s\nwant\n%s", d, want)
	}
	// With Reuse, each session in the storage of the one before: each as
	// Assemble gives it, while it is the last.
	reuse := session.Scratch{Reuse: true}
	for i, id := range order {
		s, err := a.AssembleWith(&reuse, "", id, groups[id])
		if err != nil {
			t.Fatal(err)
		}
		if d, w := dumpJoined(sig, []session.Session{s}), dumpJoined(sig, got[i:i+1]); d != w || !reflect.DeepEqual(s, got[i]) {
			t.Errorf("AssembleWith, Reuse, session %s:\n%s\nwant\n%s", id, d, w)
		}
	}
}

// TestUnpairedEveryPath: the emissions left without their partner are
// counted alike (Meta.Unpaired, once a span id, only on declared
// lifelines) whether the reader pairs a file's spans alone (session.Read,
// a run of one log, each log its own scope) or holds them for the
// assembly's pairing (a run of several logs), in memory and spilling.
func TestUnpairedEveryPath(t *testing.T) {
	const (
		t3 = "33333333333333333333333333333333"
		t4 = "44444444444444444444444444444444"
		t5 = "55555555555555555555555555555555"
		t6 = "66666666666666666666666666666666"
		t7 = "77777777777777777777777777777777"
		t8 = "88888888888888888888888888888888"
		p2 = "00000000000000b2"
	)
	dir := t.TempDir()
	f := filepath.Join(dir, "spans.json")
	data := otlpLine("a",
		linkedSpan(t1, c1, "", "3", "n", 10e9, "", ""), // paired below: not counted
		linkedSpan(t2, c1, "", "3", "n", 20e9, "", ""), // alone
		linkedSpan(t3, c1, "", "3", "n", 30e9, "", ""), // alone, read twice: once
		linkedSpan(t3, c1, "", "3", "n", 30e9, "", ""),
		linkedSpan(t4, c1, "", "3", "n", 40e9, "", ""), // read twice, paired: not counted
		linkedSpan(t4, c1, "", "3", "n", 40e9, "", ""),
		linkedSpan(t5, c1, "", "3", "HTTP GET", 50e9, "", ""),          // alone, its message undeclared: counted
		linkedSpan(t5, p2, "", "4", "m", 51e9, dest("m"), "")) + "\n" + // a PRODUCER alone
		otlpLine("b",
			linkedSpan(t1, s1, c1, "2", "n", 11e9, "", ""),
			linkedSpan(t4, s1, c1, "2", "n", 41e9, "", "")) + "\n" +
		otlpLine("zz", linkedSpan(t6, c1, "", "3", "n", 60e9, "", "")) + "\n" + // an undeclared service: ignored, not counted
		otlpLine("c", linkedSpan(t7, k1, "", "5", "process", 70e9, dest("m"), `{"traceId":"`+t7+`","spanId":"`+p1+`"}`)) + "\n" + // a CONSUMER alone: not counted
		otlpLine("a", linkedSpan(t8, c1, "", "3", "HTTP GET", 80e9, "", ""), linkedSpan(t8, c1, "", "3", "HTTP GET", 80e9, "", "")) + "\n" + // read twice, both named by their partner
		otlpLine("b", linkedSpan(t8, s1, c1, "2", "n", 81e9, "", "")) + "\n"
	other := filepath.Join(dir, "other.json")
	const t9 = "99999999999999999999999999999999"
	writeFiles(t, map[string]string{f: data, other: otlpLine("a", linkedSpan(t9, c1, "", "3", "n", 90e9, "", "")) + "\n"})
	sig := testSig(t)
	opt := logs.Options{Sig: sig}
	dump := func(sessions []session.Session) string { return unpairedDump(sig, sessions, t9) }
	want := "0a: 0 unpaired, 2/0, 0 duplicates: { [a] a!n; [b] b?n; [c] ; }\n" +
		"4b: 1 unpaired, 1/0, 0 duplicates: { [a] a!n; [b] ; [c] ; }\n" +
		"33: 1 unpaired, 1/0, 1 duplicates: { [a] a!n; [b] ; [c] ; }\n" +
		"44: 0 unpaired, 2/0, 1 duplicates: { [a] a!n; [b] b?n; [c] ; }\n" +
		"55: 2 unpaired, 1/1, 0 duplicates: { [a] a!m; [b] ; [c] ; }\n" +
		"66: 0 unpaired, 0/1, 0 duplicates: { [a] ; [b] ; [c] ; }\n" +
		"77: 0 unpaired, 1/0, 0 duplicates: { [a] ; [b] ; [c] c?m }\n" +
		"88: 0 unpaired, 2/0, 1 duplicates: { [a] a!n; [b] b?n; [c] ; }\n"
	if got := dump(readFile(t, f, opt)); got != want {
		t.Errorf("session.Read:\n%s\nwant\n%s", got, want)
	}
	for _, c := range []struct {
		files  []string
		scope  session.Scope
		budget int64
	}{
		{[]string{f}, session.ScopeRun, 0}, {[]string{f}, session.ScopeRun, 1},
		{[]string{f, other}, session.ScopeRun, 0}, {[]string{f, other}, session.ScopeRun, 1},
		{[]string{f, other}, session.ScopeFile, 0}, {[]string{f, other}, session.ScopeFile, 1},
	} {
		src := &session.Source{Options: opt, Scope: c.scope, Budget: c.budget, TmpDir: t.TempDir()}
		var got []session.Session
		for s := range src.Sessions(c.files) {
			if s.Err != nil {
				t.Fatal(s.Err)
			}
			got = append(got, s)
		}
		if d := dump(got); d != want {
			t.Errorf("%d files, scope %v, budget %d:\n%s\nwant\n%s", len(c.files), c.scope, c.budget, d, want)
		}
		if c.budget > 0 && !src.Counts.Spilled {
			t.Errorf("%d files, budget %d: not spilled", len(c.files), c.budget)
		}
	}
}

// TestCopiesAcrossFiles: a CLIENT span read in two files, one of which
// holds its SERVER partner, is one span read twice, named by its pair in
// both: neither two contents of it (a conflict, judged on the first, which
// named it by its own span) nor a span left unpaired, in either order.
func TestCopiesAcrossFiles(t *testing.T) {
	const t8 = "88888888888888888888888888888888"
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	client := linkedSpan(t8, c1, "", "3", "HTTP GET", 80e9, "", "")
	writeFiles(t, map[string]string{
		a: otlpLine("a", client) + "\n",
		b: otlpLine("a", client) + "\n" + otlpLine("b", linkedSpan(t8, s1, c1, "2", "n", 81e9, "", "")) + "\n",
	})
	sig := testSig(t)
	for _, files := range [][]string{{a, b}, {b, a}} {
		for _, budget := range []int64{0, 1} {
			got := joinedCounts(t, sig, files, budget)
			if want := "0 unpaired, 2/0, 1 duplicates, 0 conflicts: { [a] a!n; [b] b?n; [c] ; }"; len(got) != 1 || got[0] != want {
				t.Errorf("%s, budget %d: %q, want %q", bases(files), budget, got, want)
			}
		}
	}
}

// TestUnpairedStrict: a strict reading pairs each file's spans alone and
// counts the emissions it leaves without their partner (Meta.Unpaired)
// alike on every path: session.Read, a run of the Joiner, and the events
// of logs.Scan, through their binary form, assembled as ivc-beam and the
// Collector connector assemble them.
func TestUnpairedStrict(t *testing.T) {
	const t3 = "33333333333333333333333333333333"
	dir := t.TempDir()
	f := filepath.Join(dir, "spans.json")
	data := otlpLine("a",
		linkedSpan(t1, c1, "", "3", "n", 10e9, "", ""), // paired below: not counted
		linkedSpan(t2, c1, "", "3", "n", 20e9, "", ""), // alone
		linkedSpan(t3, c1, "", "3", "n", 30e9, "", ""), // alone, read twice: once
		linkedSpan(t3, c1, "", "3", "n", 30e9, "", "")) + "\n" +
		otlpLine("b", linkedSpan(t1, s1, c1, "2", "n", 11e9, "", "")) + "\n"
	if err := os.WriteFile(f, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	sig := testSig(t)
	opt := logs.Options{Sig: sig, Strict: true}
	dump := func(sessions []session.Session) string { return unpairedDump(sig, sessions, "") }
	const want = "0a: 0 unpaired, 2/0, 0 duplicates: { [a] a!n; [b] b?n; [c] ; }\n" +
		"4b: 1 unpaired, 1/0, 0 duplicates: { [a] a!n; [b] ; [c] ; }\n" +
		"33: 1 unpaired, 1/0, 1 duplicates: { [a] a!n; [b] ; [c] ; }\n"
	if got := dump(readFile(t, f, opt)); got != want {
		t.Errorf("session.Read:\n%s\nwant\n%s", got, want)
	}
	joined, _, _ := joinFiles(t, opt, 0, f)
	if got := dump(joined); got != want {
		t.Errorf("Joiner:\n%s\nwant\n%s", got, want)
	}
	if got := dump(scanAssembled(t, opt, f)); got != want {
		t.Errorf("Scan, grouped and assembled:\n%s\nwant\n%s", got, want)
	}
}

// scanAssembled reads files with logs.Scan, groups the events by session
// through their binary form, and assembles each session (scanGroups,
// assembleGroups), as ivc-beam and the Collector connector do.
func scanAssembled(t *testing.T, opt logs.Options, files ...string) []session.Session {
	t.Helper()
	groups, order := scanGroups(t, files, opt)
	_, assembled := assembleGroups(t, opt, groups, order)
	return assembled
}

// scanGroups reads files with logs.Scan, each event through its binary
// form (which gives it back), and returns the events by session, and the
// sessions in order of their first event.
func scanGroups(t *testing.T, files []string, opt logs.Options) (map[string][]logs.Event, []string) {
	t.Helper()
	groups := map[string][]logs.Event{}
	var order []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := logs.Scan(f, bytes.NewReader(data), logs.Auto, opt, func(e logs.Event) {
			d, err := session.DecodeEvent(session.AppendEvent(nil, e))
			if err != nil || !reflect.DeepEqual(d, e) {
				t.Fatalf("event %+v decodes as %+v (%v)", e, d, err)
			}
			d.File = f
			if _, ok := groups[d.Session]; !ok {
				order = append(order, d.Session)
			}
			groups[d.Session] = append(groups[d.Session], d)
		}, func(err error) { t.Error(err) }); err != nil {
			t.Fatal(err)
		}
	}
	return groups, order
}

// assembleGroups assembles the sessions of scanGroups, in its order, and
// returns them with their Assembler.
func assembleGroups(t *testing.T, opt logs.Options, groups map[string][]logs.Event, order []string) (*session.Assembler, []session.Session) {
	t.Helper()
	a, err := session.NewAssembler(opt)
	if err != nil {
		t.Fatal(err)
	}
	var got []session.Session
	for _, id := range order {
		s, err := a.Assemble("", id, groups[id])
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, s)
	}
	return a, got
}

// unpairedDump writes a line for each session but skip: the first two
// characters of its id, its counts of unpaired spans, events and ignored
// ones, duplicates and conflicts (if any), and its multi-trace.
func unpairedDump(sig *interaction.Signature, sessions []session.Session, skip string) string {
	var b strings.Builder
	for _, s := range sessions {
		if s.ID == skip {
			continue
		}
		fmt.Fprintf(&b, "%s: %d unpaired, %d/%d, %d duplicates: ", s.ID[:2], s.Unpaired, s.Events, s.Ignored, s.Duplicates)
		if s.Conflicts > 0 {
			fmt.Fprintf(&b, "%d conflicts (%v) ", s.Conflicts, s.Conflict)
		}
		b.Write(bytes.Join(bytes.Fields(s.MT.Format(sig)), []byte(" ")))
		b.WriteByte('\n')
	}
	return b.String()
}

// writeFiles writes each file of files (by path) with its content.
func writeFiles(t *testing.T, files map[string]string) {
	t.Helper()
	for name, data := range files {
		if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// readFile reads the log f with session.Read, any malformed line an error.
func readFile(t *testing.T, f string, opt logs.Options) []session.Session {
	t.Helper()
	sessions, _, err := session.Read(f, logs.Auto, opt, func(err error) { t.Error(err) })
	if err != nil {
		t.Fatal(err)
	}
	return sessions
}

// joinedCounts joins files in a run (spilling past budget) and returns,
// for each session, its counts of unpaired spans, events, ignored ones,
// duplicates and conflicts, and its multi-trace.
func joinedCounts(t *testing.T, sig *interaction.Signature, files []string, budget int64) []string {
	t.Helper()
	sessions, _, _ := joinFiles(t, logs.Options{Sig: sig}, budget, files...)
	var got []string
	for _, s := range sessions {
		got = append(got, fmt.Sprintf("%d unpaired, %d/%d, %d duplicates, %d conflicts: %s", s.Unpaired, s.Events, s.Ignored,
			s.Duplicates, s.Conflicts, bytes.Join(bytes.Fields(s.MT.Format(sig)), []byte(" "))))
	}
	return got
}

// TestCopiesHeldTwice: a CLIENT span read in two files that leave it
// alone, and its SERVER partner in a third (alone there too, or beside a
// third copy of the CLIENT span): every copy is named by the pair, one
// span read two or three times, in any order of the files.
func TestCopiesHeldTwice(t *testing.T) {
	const t8 = "88888888888888888888888888888888"
	dir := t.TempDir()
	a, b, c := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json"), filepath.Join(dir, "c.json")
	client := otlpLine("a", linkedSpan(t8, c1, "", "3", "HTTP GET", 80e9, "", "")) + "\n"
	server := otlpLine("b", linkedSpan(t8, s1, c1, "2", "n", 81e9, "", "")) + "\n"
	sig := testSig(t)
	for _, third := range []struct {
		data, want string
	}{
		{server, "0 unpaired, 2/0, 1 duplicates, 0 conflicts: { [a] a!n; [b] b?n; [c] ; }"},
		{client + server, "0 unpaired, 2/0, 2 duplicates, 0 conflicts: { [a] a!n; [b] b?n; [c] ; }"},
	} {
		writeFiles(t, map[string]string{a: client, b: client, c: third.data})
		for _, files := range [][]string{{a, b, c}, {c, a, b}, {a, c, b}} {
			for _, budget := range []int64{0, 1} {
				got := joinedCounts(t, sig, files, budget)
				if len(got) != 1 || got[0] != third.want {
					t.Errorf("%s, budget %d: %q, want %q", bases(files), budget, got, third.want)
				}
			}
		}
	}
}

// TestUnpairedAcrossFiles: read strictly, a CLIENT span that two files
// each leave alone is one span left unpaired, counted once (as its copies
// are one event), on every path: a run of the Joiner in memory, spilling
// from its first event or partway (its sessions' counts written to the
// spill then), and the events of logs.Scan assembled.
func TestUnpairedAcrossFiles(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	copies := otlpLine("a", linkedSpan(t1, c1, "", "3", "n", 10e9, "", "")) // alone in both
	writeFiles(t, map[string]string{
		a: copies + "\n" + otlpLine("a", linkedSpan(t2, c1, "", "3", "n", 20e9, "", "")) + "\n", // alone: counted
		b: copies + "\n",
	})
	sig := testSig(t)
	opt := logs.Options{Sig: sig, Strict: true}
	dump := func(sessions []session.Session) string { return unpairedDump(sig, sessions, "") }
	const want = "0a: 1 unpaired, 1/0, 1 duplicates: { [a] a!n; [b] ; [c] ; }\n" +
		"4b: 1 unpaired, 1/0, 0 duplicates: { [a] a!n; [b] ; [c] ; }\n"
	for budget := int64(0); ; budget += 64 {
		got, counts, _ := joinFiles(t, opt, budget, a, b)
		if d := dump(got); d != want {
			t.Errorf("Joiner, budget %d (spilled: %v):\n%s\nwant\n%s", budget, counts.Spilled, d, want)
		}
		if budget > 0 && !counts.Spilled {
			break
		}
	}
	if got := dump(scanAssembled(t, opt, a, b)); got != want {
		t.Errorf("Scan, grouped and assembled:\n%s\nwant\n%s", got, want)
	}
}

// TestJoinManySpans: a run of two services' OTLP files, each of 20,000
// traces' spans (more than a chunk of the spans a joiner holds for
// pairing, and than many chunks of those a reader holds until its file is
// read, which go back to their pool for the next file's reader): every
// CLIENT span pairs with its SERVER span in the other file, read twice in
// a row, the second time in the chunks the first gave back.
func TestJoinManySpans(t *testing.T) {
	const traces = 20000
	dir := t.TempDir()
	var client, server strings.Builder
	for i := range traces {
		trace, id := fmt.Sprintf("%032x", i+1), fmt.Sprintf("%016x", i+1)
		client.WriteString(otlpLine("a", linkedSpan(trace, id, "", "3", "HTTP GET", 10e9+int64(i), "", "")) + "\n")
		server.WriteString(otlpLine("b", linkedSpan(trace, fmt.Sprintf("%016x", traces+i+1), id, "2", "n", 11e9+int64(i), "", "")) + "\n")
	}
	files := []string{filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")}
	for i, data := range []string{client.String(), server.String()} {
		if err := os.WriteFile(files[i], []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sig := testSig(t)
	opt := logs.Options{Sig: sig}
	var first string
	for pass := range 2 {
		got := joined(t, files, opt, 0, false)
		if len(got) != traces {
			t.Fatalf("pass %d: %d sessions, want %d", pass, len(got), traces)
		}
		for _, s := range got {
			if d := dumpJoined(sig, []session.Session{s}); !strings.HasSuffix(d, " in a.jsonl,b.jsonl: 2/0: { [a] a!n; [b] b?n; [c] ; }\n") {
				t.Fatalf("pass %d: %s", pass, d)
			}
		}
		if d := dumpJoined(sig, got); pass == 0 {
			first = d
		} else if d != first {
			t.Errorf("pass %d differs from the first", pass)
		}
	}
}
