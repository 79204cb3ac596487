package session_test

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/session"
	"github.com/ivc-project/ivc/spec"
)

// joinFiles joins the logs at paths with a Source of budget bytes, and
// returns its sessions (their errors reported), what it counted, and its
// notes.
func joinFiles(t *testing.T, opt logs.Options, budget int64, paths ...string) ([]session.Session, session.Counts, []string) {
	t.Helper()
	var notes []string
	src := &session.Source{Options: opt, Budget: budget, TmpDir: t.TempDir(), Note: func(err error) { notes = append(notes, err.Error()) }}
	var out []session.Session
	for s := range src.Sessions(paths) {
		if s.Err != nil {
			t.Errorf("%s: %v", s.File, s.Err)
			continue
		}
		out = append(out, s)
	}
	return out, src.Counts, notes
}

// sameSessions reports how the sessions got differ from want, by id, in
// their multi-traces and counts ("" when alike).
func sameSessions(t *testing.T, sp *spec.Spec, got, want []session.Session) string {
	t.Helper()
	if len(got) != len(want) {
		return "not as many sessions"
	}
	var b strings.Builder
	for i := range got {
		g, w := &got[i], &want[i]
		gt, wt := string(g.MT.Format(sp.Sig)), string(w.MT.Format(sp.Sig))
		if g.ID != w.ID || g.Events != w.Events || g.Ignored != w.Ignored || gt != wt {
			b.WriteString(g.ID + ": " + gt + "\nwant " + w.ID + ": " + wt + "\n")
		}
	}
	return b.String()
}

// TestDuplicateSpans: the same trace file twice under two names (a copy,
// and the file gzipped, in one directory) holds each span twice: joined
// by the trace id, each span counts once, in memory and spilled alike,
// and the sessions are those of the file read alone (its copy, which adds
// no event, is not among their files).
func TestDuplicateSpans(t *testing.T) {
	sp, err := spec.Load("../testdata/abp/abp.hsf", "")
	if err != nil {
		t.Fatal(err)
	}
	opt := logs.Options{Sig: sp.Sig}
	orig := "../testdata/logs/abp.otlp.json"
	data, err := os.ReadFile(orig)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "abp.otlp.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(data)
	zw.Close()
	if err := os.WriteFile(filepath.Join(dir, "abp.otlp.json.gz"), gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	want, wantCounts, _ := joinFiles(t, opt, 0, orig)
	if len(want) != 3 || wantCounts.Duplicates != 0 {
		t.Fatalf("%d sessions, %d duplicates", len(want), wantCounts.Duplicates)
	}
	for _, budget := range []int64{0, 1} { // in memory; spilled at once
		got, counts, notes := joinFiles(t, opt, budget, filepath.Join(dir, "abp.otlp.json"), filepath.Join(dir, "abp.otlp.json.gz"))
		if diff := sameSessions(t, sp, got, want); diff != "" {
			t.Errorf("budget %d:\n%s", budget, diff)
		}
		if counts.Duplicates != wantCounts.Events || counts.Conflicts != 0 || counts.Events != wantCounts.Events || len(notes) != 0 {
			t.Errorf("budget %d: %+v, notes %q; want %d duplicates", budget, counts, notes, wantCounts.Events)
		}
		for _, s := range got {
			// The copy adds no event: the session is its first file's.
			if s.Duplicates != s.Events || s.Joined() {
				t.Errorf("budget %d: session %s: %d duplicates of %d events, files %q", budget, s.ID, s.Duplicates, s.Events, s.Files)
			}
		}
	}
}

// TestSameFileOnce: a log named twice (twice its path, through a
// directory and a link) is read once, with a note; its sessions are those
// of the log named once.
func TestSameFileOnce(t *testing.T) {
	sp, err := spec.Load("../testdata/abp/abp.hsf", "")
	if err != nil {
		t.Fatal(err)
	}
	opt := logs.Options{Sig: sp.Sig}
	abs, err := filepath.Abs("../testdata/logs/abp.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "link.jsonl")
	if err := os.Symlink(abs, link); err != nil {
		t.Skip(err)
	}
	want, wantCounts, _ := joinFiles(t, opt, 0, abs)
	for _, paths := range [][]string{{abs, abs}, {"../testdata/logs/abp.jsonl", abs}, {link, abs, "../testdata/logs/abp.jsonl"}} {
		got, counts, notes := joinFiles(t, opt, 0, paths...)
		if diff := sameSessions(t, sp, got, want); diff != "" {
			t.Errorf("%q:\n%s", paths, diff)
		}
		if counts.Files != 1 || counts.Repeated != len(paths)-1 || counts.Duplicates != 0 || counts.Events != wantCounts.Events {
			t.Errorf("%q: %+v", paths, counts)
		}
		if len(notes) != len(paths)-1 || !strings.Contains(notes[0], ": the same file as ") || !strings.HasSuffix(notes[0], ", read once") {
			t.Errorf("%q: notes %q", paths, notes)
		}
	}
}

// otlpOne returns an OTLP/JSON line of one span of service svc.
func otlpOne(svc, trace, span, kind, name string, start int) string {
	return `{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"` + svc +
		`"}}]},"scopeSpans":[{"spans":[{"traceId":"` + trace + `","spanId":"` + span + `","name":"` + name +
		`","kind":` + kind + `,"startTimeUnixNano":"` + strings.Repeat("1", start) + `"}]}]}]}` + "\n"
}

// TestConflictingSpan: a span read again with other content is dropped,
// its session judged on the first, and reported with both places.
func TestConflictingSpan(t *testing.T) {
	const trace = "0af7651916cd43dd8448eb211c80319c"
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	os.WriteFile(a, []byte(otlpOne("a", trace, "00000000000000a1", "4", "m", 3)+otlpOne("b", trace, "00000000000000b1", "5", "m", 4)), 0o644)
	os.WriteFile(b, []byte(otlpOne("b", trace, "00000000000000b1", "5", "m", 4)+otlpOne("a", trace, "00000000000000a1", "4", "n", 5)), 0o644)
	sig := testSig(t)
	got, counts, notes := joinFiles(t, logs.Options{Sig: sig}, 0, a, b)
	if len(got) != 1 || string(got[0].MT.Format(sig)) != "[a] a!m\n[b] b?m\n[c] \n" && len(got[0].MT.Components) != 3 {
		t.Fatalf("sessions %+v", got)
	}
	s := got[0]
	var parts []string
	for _, c := range s.MT.Components {
		for _, e := range c.Trace {
			parts = append(parts, e.Format(sig))
		}
	}
	if strings.Join(parts, " ") != "a!m b?m" || s.Events != 2 || s.Duplicates != 2 || s.Conflicts != 1 || counts.Conflicts != 1 {
		t.Errorf("events %q, %+v", parts, s.Meta)
	}
	want := b + `:2: session "` + trace + `": span 00000000000000a1 read again with other content: a!n starting `
	if len(notes) != 1 || !strings.HasPrefix(notes[0], want) || !strings.HasSuffix(notes[0], " at "+a+":1; judged on the first") {
		t.Errorf("notes %q, want %s...", notes, want)
	}
}

// TestZipkinSharedNotDuplicate: Zipkin gives the two halves of an RPC one
// span id (shared): one call, two events, no duplicate.
func TestZipkinSharedNotDuplicate(t *testing.T) {
	sig, err := interaction.NewSignature([]string{"servicea", "serviceb"}, []string{"get", "post"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sessions, _, err := session.Read("../testdata/realtraces/zipkin/skew.json", logs.Auto, logs.Options{Sig: sig}, func(err error) { t.Error(err) })
	if err != nil || len(sessions) != 1 {
		t.Fatal(sessions, err)
	}
	if s := sessions[0]; s.Events != 3 || s.Duplicates != 0 || s.MT.Len() != 3 {
		t.Errorf("%+v: %s", s.Meta, s.MT.Format(sig))
	}
}

// TestDuplicateSeq: an event log's event whose seq and action its
// location had is the same event logged twice; the same seq with another
// action is another event.
func TestDuplicateSeq(t *testing.T) {
	sig := testSig(t)
	log := `{"session":"x","lifeline":"a","kind":"send","message":"m","seq":1}
{"session":"x","lifeline":"a","kind":"send","message":"n","seq":2}
{"session":"x","lifeline":"a","kind":"send","message":"m","seq":1}
{"session":"x","lifeline":"b","kind":"receive","message":"m","seq":1}
{"session":"x","lifeline":"b","kind":"receive","message":"n","seq":1}
`
	sessions, _, err := session.ReadFrom("x.jsonl", strings.NewReader(log), logs.JSONL, logs.Options{Sig: sig}, func(err error) { t.Error(err) })
	if err != nil || len(sessions) != 1 {
		t.Fatal(sessions, err)
	}
	s := sessions[0]
	var parts []string
	for _, c := range s.MT.Components {
		for _, e := range c.Trace {
			parts = append(parts, e.Format(sig))
		}
	}
	if strings.Join(parts, " ") != "a!m a!n b?m b?n" || s.Events != 4 || s.Duplicates != 1 {
		t.Errorf("events %q, %+v", parts, s.Meta)
	}
}

// TestDuplicateGroups: a pipeline's workers that read the same spans in
// two files (the events moved in their binary form) assemble each span
// once.
func TestDuplicateGroups(t *testing.T) {
	sp, err := spec.Load("../testdata/abp/abp.hsf", "")
	if err != nil {
		t.Fatal(err)
	}
	opt := logs.Options{Sig: sp.Sig}
	data, err := os.ReadFile("../testdata/logs/abp.otlp.json")
	if err != nil {
		t.Fatal(err)
	}
	asm, err := session.NewAssembler(opt)
	if err != nil {
		t.Fatal(err)
	}
	g := &session.Groups{}
	for _, name := range []string{"x.json", "y.json"} {
		_, err := logs.Scan(name, bytes.NewReader(data), logs.Auto, opt, func(e logs.Event) {
			d, err := session.DecodeEvent(session.AppendEvent(nil, e))
			if err != nil || d.Span != e.Span || e.Span == 0 && !e.Ignored {
				t.Fatalf("%+v: decoded %+v, %v", e, d, err)
			}
			g.Add(name, d)
		}, func(err error) { t.Error(err) })
		if err != nil {
			t.Fatal(err)
		}
	}
	want, _, _ := joinFiles(t, opt, 0, "../testdata/logs/abp.otlp.json")
	n := 0
	for s, err := range g.Sessions(asm) {
		if err != nil {
			t.Fatal(err)
		}
		if s.Duplicates != s.Events || s.Events == 0 {
			t.Errorf("session %s: %d events, %d duplicates", s.ID, s.Events, s.Duplicates)
		}
		n += s.Events
	}
	if g.Counts.Duplicates != n || g.Counts.Events != n || n != want[0].Events+want[1].Events+want[2].Events {
		t.Errorf("%+v, want %d events", g.Counts, n)
	}
}
