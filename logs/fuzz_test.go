package logs_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/session"
	"github.com/ivc-project/ivc/syntax"
)

// The fuzz targets read any input in one format, with the test signature
// (lifelines a, b, c; messages m, n), and check that reading never panics,
// that every event is accounted for, and that the sessions are valid. Their
// seed corpora are in testdata/fuzz: small logs written by Write, and
// malformed ones.

// fuzzRead reads in with f, and checks the sessions and the stats.
func fuzzRead(t *testing.T, name string, in []byte, f logs.Format, strict bool) ([]session.Session, logs.Stats, bool) {
	sig := testSig(t)
	locs := []interaction.Lifelines{interaction.LifelinesOf(0, 2)} // [a,c] [b]
	reported := 0
	var reports []string
	opt := logs.Options{Sig: sig, Locations: locs, Strict: strict}
	sessions, st, err := session.ReadFrom(name, bytes.NewReader(in), f, opt,
		func(err error) {
			reported++
			reports = append(reports, err.Error())
			if e, ok := err.(*syntax.Error); !ok || e.Pos.Line < 1 || !strings.HasPrefix(err.Error(), name+":") {
				t.Errorf("reported %T %v: not a positioned *syntax.Error", err, err)
			}
		})
	if err != nil {
		if sessions != nil {
			t.Errorf("sessions and an error %v", err)
		}
		return nil, st, false // refused as a whole (binary content, a bad header, ...)
	}
	// Past the first DefaultMaxReports, one last report counts the others.
	if want := min(st.Malformed, logs.DefaultMaxReports+1); reported != want {
		t.Errorf("%d errors reported, %d malformed", reported, st.Malformed)
	}
	checkSessions(t, sig, sessions, st, 2)
	checkScan(t, name, in, f, opt, sessions, st, reports)
	checkJoined(t, name, in, f, opt, sessions, st)
	// Within a tiny memory budget (values of 4 KiB), the limits end
	// reading with positioned errors, and what was read adds up.
	small := opt
	small.MaxMemory = 1 << 10
	ss, sst, err := session.ReadFrom(name, bytes.NewReader(in), f, small, func(err error) {
		if e, ok := err.(*syntax.Error); !ok || e.Pos.Line < 1 || !strings.HasPrefix(err.Error(), name+":") {
			t.Errorf("within 1 KiB: reported %T %v: not a positioned *syntax.Error", err, err)
		}
	})
	if err == nil {
		checkSessions(t, sig, ss, sst, 2)
	} else if !strings.HasPrefix(err.Error(), name+":") {
		t.Errorf("within 1 KiB: %v does not name the file", err)
	}
	return sessions, st, true
}

// checkJoined checks that a Joiner that pairs spans across files (it
// holds those its file leaves alone for each session's assembly) reads in
// as session.Read read it, pairing the spans of one file alone: want, with
// their stats.
func checkJoined(t *testing.T, name string, in []byte, f logs.Format, opt logs.Options, want []session.Session, wantStats logs.Stats) {
	t.Helper()
	checkJoinedIn(t, name, in, f, opt, want, wantStats, 0)
	// Spilling at once (a budget of 1 byte), for a quarter of the inputs:
	// its files cost more than the rest of a check.
	spill := len(in)%4 == 0
	if spill {
		checkJoinedIn(t, name, in, f, opt, want, wantStats, 1)
	}
	if opt.Strict {
		checkUnpairedTwice(t, name, in, f, opt, want, 0)
		if spill {
			checkUnpairedTwice(t, name, in, f, opt, want, 1)
		}
	}
}

// checkUnpairedTwice checks that a strict run that reads in twice, as two
// files, counts each session's spans left without a partner as one
// reading does (want): once a span, however many files leave it alone.
func checkUnpairedTwice(t *testing.T, name string, in []byte, f logs.Format, opt logs.Options, want []session.Session, budget int64) {
	t.Helper()
	j, _ := joined(t, opt, budget, in, f, name, name+".copy")
	unpaired := map[string]int{}
	for _, s := range want {
		unpaired[s.ID] = s.Unpaired
	}
	for s, err := range j.Sessions() {
		if err != nil {
			t.Fatal(err)
		}
		if s.Unpaired != unpaired[s.ID] {
			t.Errorf("read twice (budget %d): session %q: %d unpaired, %d read once", budget, s.ID, s.Unpaired, unpaired[s.ID])
		}
	}
}

// joined returns a Joiner of opt, within budget (0: none; spilling to a
// directory of the test's), that has read in, in format f, once under
// each of names, and the stats of its last reading; the test closes it.
func joined(t *testing.T, opt logs.Options, budget int64, in []byte, f logs.Format, names ...string) (*session.Joiner, logs.Stats) {
	t.Helper()
	var dir string
	if budget > 0 {
		dir = t.TempDir()
	}
	j, err := session.NewJoiner(opt, budget, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	var st logs.Stats
	for _, name := range names {
		input, err := logs.NewInput(name, bytes.NewReader(in), f, opt)
		if err != nil {
			t.Fatal(err)
		}
		if st, err = j.Read(input, nil); err != nil {
			t.Fatalf("Joiner, %s: %v, Read had none", name, err)
		}
	}
	return j, st
}

// checkJoinedIn is checkJoined with a Joiner of the memory budget budget
// (0: none).
func checkJoinedIn(t *testing.T, name string, in []byte, f logs.Format, opt logs.Options, want []session.Session, wantStats logs.Stats, budget int64) {
	t.Helper()
	j, st := joined(t, opt, budget, in, f, name)
	if st.Sessions = wantStats.Sessions; st != wantStats {
		t.Errorf("Joiner: stats %+v, Read %+v", st, wantStats)
	}
	if budget > 0 && len(want) > 0 && !j.Spilled() {
		t.Errorf("Joiner (budget %d): %d sessions, none spilled", budget, len(want))
	}
	i := 0
	for s, err := range j.Sessions() {
		if err != nil {
			t.Fatal(err)
		}
		if i == len(want) {
			t.Fatalf("Joiner: more sessions than Read's %d", len(want))
		}
		w := want[i]
		i++
		if s.ID != w.ID || s.Line != w.Line || s.Events != w.Events || s.Ignored != w.Ignored || s.Unpaired != w.Unpaired ||
			s.Duplicates != w.Duplicates || s.Conflicts != w.Conflicts || (s.Err == nil) != (w.Err == nil) ||
			s.Err != nil && s.Err.Error() != w.Err.Error() || s.MT != nil && w.MT != nil && !s.MT.Equal(w.MT) {
			t.Errorf("Joiner (budget %d):\n%+v\nRead:\n%+v", budget, s.Meta, w.Meta)
		}
		// Its events' origins too (a session of a shape seen before
		// keeps them in the order read: session.Session.Shared).
		for c := 0; s.MT != nil && w.MT != nil && c < len(w.MT.Components); c++ {
			for e := range len(w.MT.Components[c].Trace) + 1 {
				so, sok := s.Origins.At(c, e)
				wo, wok := w.Origins.At(c, e)
				if so != wo || sok != wok {
					t.Errorf("Joiner (budget %d): session %q, event %d of component %d: origin %+v %v, Read %+v %v", budget, s.ID, e, c, so, sok, wo, wok)
				}
			}
		}
	}
	if i != len(want) {
		t.Errorf("Joiner: %d sessions, Read %d", i, len(want))
	}
}

// checkSessions checks that sessions are valid multi-traces over nlocs
// locations that add up to st.
func checkSessions(t *testing.T, sig *interaction.Signature, sessions []session.Session, st logs.Stats, nlocs int) {
	t.Helper()
	var sum logs.Stats
	sum.Sessions, sum.Malformed, sum.Unkinded = len(sessions), st.Malformed, st.Unkinded // spans without a kind are in no session
	ids := map[string]bool{}
	dups := 0 // events read again, dropped from their session (an event or an ignored one)
	for _, s := range sessions {
		sum.Events += s.Events
		sum.Ignored += s.Ignored
		dups += s.Duplicates
		if ids[s.ID] {
			t.Errorf("session %q twice", s.ID)
		}
		ids[s.ID] = true
		if s.Line < 1 {
			t.Errorf("session %q at line %d", s.ID, s.Line)
		}
		if (s.MT == nil) == (s.Err == nil) {
			t.Errorf("session %q: MT %v, Err %v", s.ID, s.MT, s.Err)
		}
		if s.MT == nil {
			continue
		}
		if len(s.MT.Components) != nlocs || s.MT.Len() != s.Events {
			t.Errorf("session %q: %d components, %d events, want %d and %d", s.ID, len(s.MT.Components), s.MT.Len(), nlocs, s.Events)
		}
		var all interaction.Lifelines
		for _, c := range s.MT.Components {
			if c.Lifelines.Meets(all) {
				t.Errorf("session %q: locations overlap", s.ID)
			}
			all = all.Union(c.Lifelines)
			for _, e := range c.Trace {
				if len(e) != 1 || !c.Lifelines.Has(e[0].Lifeline()) || int(e[0].Message()) >= len(sig.Messages) {
					t.Errorf("session %q: event %v outside its location %s", s.ID, e, c.Lifelines.Format(sig))
				}
			}
		}
		if all != sig.AllLifelines() {
			t.Errorf("session %q: locations %s do not cover the signature", s.ID, all.Format(sig))
		}
	}
	// Each duplicate was read as an event or an ignored one, and is in no
	// session: what was read is what the sessions hold and what they dropped.
	if sum.Events > st.Events || sum.Ignored > st.Ignored || sum.Events+sum.Ignored+dups != st.Events+st.Ignored {
		t.Errorf("stats %+v, the sessions add up to %+v and %d duplicates", st, sum, dups)
	}
	sum.Events, sum.Ignored = st.Events, st.Ignored
	if sum != st {
		t.Errorf("stats %+v, the sessions add up to %+v", st, sum)
	}
}

// nonBlankLines counts the lines of in that hold more than blanks.
func nonBlankLines(in []byte) int {
	n := 0
	for _, line := range bytes.Split(in, []byte("\n")) {
		if len(bytes.TrimSpace(line)) > 0 {
			n++
		}
	}
	return n
}

func FuzzJSONL(f *testing.F) {
	f.Fuzz(func(t *testing.T, in []byte, strict bool) {
		_, st, ok := fuzzRead(t, "f.jsonl", in, logs.JSONL, strict)
		if !ok {
			return
		}
		// Every line that is not blank is one event: judged, ignored or malformed.
		if n := nonBlankLines(in); st.Events+st.Ignored+st.Malformed != n {
			t.Errorf("%+v for %d lines", st, n)
		}
	})
}

func FuzzCSV(f *testing.F) {
	f.Fuzz(func(t *testing.T, in []byte, strict bool) {
		_, st, ok := fuzzRead(t, "f.csv", in, logs.CSV, strict)
		if !ok {
			return // a bad header
		}
		// Every row after the header is one event; without quotes, a row is a line.
		n := max(nonBlankLines(in)-1, 0)
		got := st.Events + st.Ignored + st.Malformed
		if got > n || !bytes.Contains(in, []byte(`"`)) && got != n {
			t.Errorf("%+v for %d rows", st, n)
		}
	})
}

func FuzzOTLP(f *testing.F) {
	f.Fuzz(func(t *testing.T, in []byte, strict bool) {
		_, st, ok := fuzzRead(t, "f.json", in, logs.OTLP, strict)
		if !ok {
			return // refused as a whole: binary content
		}
		if logs.IsOTLPProto(in) {
			return // read as OTLP/protobuf, whose parts fuzzRead checks (a text line "0" after a newline looks like its start)
		}
		lines := bytes.Split(in, []byte("\n"))
		first := 0
		for first < len(lines) && len(bytes.TrimSpace(lines[first])) == 0 {
			first++
		}
		if first == len(lines) || !json.Valid(bytes.TrimSuffix(lines[first], []byte("\r"))) {
			return // one object over many lines: checked by fuzzRead only
		}
		// One object a line: each line is malformed, or each of its spans
		// with an action kind is an event, judged or ignored.
		var u ptrace.JSONUnmarshaler
		spans, malformed := 0, 0
		for _, line := range lines {
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			if bytes.Contains(line, []byte(`"result"`)) {
				return // Jaeger's API v3 answer: the reader reads the object inside, pdata not
			}
			if bytes.Contains(line, []byte("nstrumentation")) || bytes.Contains(line, []byte(`"batches"`)) {
				return // the reader reads the names before OTLP 1.0 and Tempo's, pdata not
			}
			td, err := u.UnmarshalTraces(bytes.TrimSuffix(line, []byte("\r")))
			if err != nil {
				if bytes.Contains(line, []byte(`Id"`)) || bytes.Contains(line, []byte(`_id"`)) {
					return // the reader may read its ids as base64, which pdata refuses
				}
				malformed++
				continue
			}
			// Resource spans of no span that hold a field OTLP does not
			// know are malformed: never read as nothing.
			if td.SpanCount() == 0 && td.ResourceSpans().Len() > 0 {
				strictU := ptrace.JSONUnmarshaler{DisallowUnknownFields: true}
				if _, err := strictU.UnmarshalTraces(bytes.TrimSuffix(line, []byte("\r"))); err != nil && strings.Contains(err.Error(), "unknown field") {
					malformed++
				}
				continue
			}
			rss := td.ResourceSpans()
			for i := range rss.Len() {
				sss := rss.At(i).ScopeSpans()
				for j := range sss.Len() {
					ss := sss.At(j).Spans()
					for k := range ss.Len() {
						sp := ss.At(k)
						if kind := sp.Kind(); kind < ptrace.SpanKindServer || kind > ptrace.SpanKindConsumer {
							continue
						}
						// A span without a start time, or past 2^63-1 ns, is malformed.
						if start := uint64(sp.StartTimestamp()); start == 0 || start > 1<<63-1 {
							malformed++
						} else {
							spans++
						}
					}
				}
			}
		}
		// With strict, spans outside the signature are reported instead.
		if st.Events+st.Ignored+st.Malformed != spans+malformed || !strict && st.Malformed != malformed {
			t.Errorf("%+v for %d spans and %d malformed lines", st, spans, malformed)
		}
	})
}

func FuzzJaeger(f *testing.F) {
	f.Fuzz(func(t *testing.T, in []byte, strict bool) {
		_, st, _ := fuzzRead(t, "f.json", in, logs.Jaeger, strict)
		// A span is at most one event; each object holds at most one span.
		if n := bytes.Count(in, []byte("{")); st.Events+st.Ignored > n {
			t.Errorf("%+v for %d objects", st, n)
		}
	})
}

func FuzzZipkin(f *testing.F) {
	f.Fuzz(func(t *testing.T, in []byte, strict bool) {
		_, st, _ := fuzzRead(t, "f.json", in, logs.Zipkin, strict)
		// A span is at most one event, and each is an object.
		if n := bytes.Count(in, []byte("{")); st.Events+st.Ignored+st.Unkinded > n {
			t.Errorf("%+v for %d objects", st, n)
		}
	})
}

func FuzzStdouttrace(f *testing.F) {
	f.Fuzz(func(t *testing.T, in []byte, strict bool) {
		_, st, _ := fuzzRead(t, "f.json", in, logs.Stdouttrace, strict)
		if n := bytes.Count(in, []byte("{")); st.Events+st.Ignored+st.Unkinded > n {
			t.Errorf("%+v for %d objects", st, n)
		}
	})
}

// FuzzOTLPProto: on a request that pdata decodes whole, each span with an
// action kind is an event (judged or ignored) or malformed, as when the
// same request is read as OTLP/JSON.
func FuzzOTLPProto(f *testing.F) {
	f.Fuzz(func(t *testing.T, in []byte, strict bool) {
		_, st, ok := fuzzRead(t, "f.pb", in, logs.OTLPProto, strict)
		if !ok || len(in) == 0 || in[0] != 0x0a {
			return // refused as a whole, or the file exporter's messages
		}
		req := ptraceotlp.NewExportRequest()
		if err := req.UnmarshalProto(in); err != nil {
			return // the reader reads the resource spans before the one that does not decode
		}
		var m ptrace.JSONMarshaler
		doc, err := m.MarshalTraces(req.Traces())
		if err != nil {
			t.Fatal(err)
		}
		_, jst, _ := fuzzRead(t, "f.json", append(doc, '\n'), logs.OTLP, strict)
		if st.Events != jst.Events || st.Ignored != jst.Ignored || st.Unkinded != jst.Unkinded || st.Malformed != jst.Malformed {
			t.Errorf("%+v, as OTLP/JSON %+v", st, jst)
		}
	})
}
