package session

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/gen"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/spec"
)

// shapeLogs writes, in dir, logs of sessions that repeat a few shapes,
// and returns them: events ordered by time (in the order read, or not),
// by line, or by seq (with an event read twice), a location with mixed
// keys, a message outside the signature, a line that cannot be read, and
// sessions joined across two files, each of which builds its own way.
func shapeLogs(t *testing.T, dir string) (inputs [][]string, shareable [][]bool) {
	t.Helper()
	type event struct {
		file                   int
		lifeline, kind, msg, k string
	}
	var templates [][]event
	key := func(kind, i int) string {
		switch kind {
		case 0: // time, in order
			return fmt.Sprintf(`,"time":"2025-01-01T00:00:%02dZ"`, i)
		case 1: // time, the first two swapped
			return fmt.Sprintf(`,"time":"2025-01-01T00:00:%02dZ"`, []int{1, 0}[min(i, 1)]+max(i-1, 0))
		case 2: // seq, the second event read twice
			return fmt.Sprintf(`,"seq":%d`, i)
		}
		return "" // line
	}
	for kind := range 4 {
		for v := range 3 {
			var tpl []event
			for i := range 4 + v {
				tpl = append(tpl, event{file: i % 2, lifeline: []string{"a", "b", "c"}[(i+v)%3], kind: []string{"send", "receive"}[i%2],
					msg: []string{"m", "n"}[(i/2+v)%2], k: key(kind, i)})
			}
			if kind == 2 {
				tpl = append(tpl, tpl[1])
			}
			switch v {
			case 1:
				tpl = append(tpl, event{lifeline: "a", kind: "send", msg: "x", k: key(kind, 9)}) // ignored
			case 2:
				tpl[1].k = key((kind+1)%4, 1) // mixed keys
			}
			templates = append(templates, tpl)
		}
	}
	// The sessions in batches of five whose events interleave, each
	// session's in its order.
	var lines [2][]string
	const batch = 5
	for from := 0; from < 12*len(templates); from += batch {
		var sess [batch][2][]string
		for s := from; s < from+batch; s++ {
			for _, e := range templates[s%len(templates)] {
				sess[s-from][e.file] = append(sess[s-from][e.file], fmt.Sprintf(`{"session":"s%d","lifeline":%q,"kind":%q,"message":%q%s}`, s, e.lifeline, e.kind, e.msg, e.k))
			}
			if s%17 == 0 {
				sess[s-from][0] = append(sess[s-from][0], fmt.Sprintf(`{"session":"s%d","lifeline":"a","kind":"send","message":`, s)) // dropped
			}
		}
		for f := range lines {
			for i := 0; ; i++ {
				more := false
				for _, ls := range sess {
					if i < len(ls[f]) {
						lines[f] = append(lines[f], ls[f][i])
						more = true
					}
				}
				if !more {
					break
				}
			}
		}
	}
	var files [2]string
	for i, l := range lines {
		files[i] = filepath.Join(dir, fmt.Sprintf("log%d.jsonl", i))
		if err := os.WriteFile(files[i], []byte(strings.Join(l, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A template's sessions have a shape when each location's events have
	// one kind of key, not seq, and come in the order of their keys: by
	// line, from one file; by time, non-decreasing.
	for _, n := range []int{1, 2} {
		var ok []bool
		for _, tpl := range templates {
			good := true
			for _, l := range []string{"a", "b", "c"} {
				var at []event // in the order read: file by file
				for f := range n {
					for _, e := range tpl {
						if e.lifeline == l && e.msg != "x" && e.file == f {
							at = append(at, e)
						}
					}
				}
				kind := func(e event) string { return strings.Split(e.k+`"`, `"`)[1] }
				for i, e := range at {
					switch {
					case kind(e) == "seq":
						good = false
					case i == 0:
					case kind(e) != kind(at[0]), kind(e) == "" && e.file != at[0].file, e.k < at[i-1].k:
						good = false
					}
				}
			}
			ok = append(ok, good)
		}
		shareable = append(shareable, ok)
	}
	return [][]string{files[:1], files[:]}, shareable
}

// readShaped reads files with a joiner whose shapes are x (nil: none),
// over the signature of shapeLogs.
func readShaped(t *testing.T, files []string, x *shapes, budget int64) []Session {
	t.Helper()
	sig, err := interaction.NewSignature([]string{"a", "b", "c"}, []string{"m", "n"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return readShapedWith(t, files, x, budget, logs.Options{Sig: sig})
}

// readShapedWith is readShaped with the options opt.
func readShapedWith(t *testing.T, files []string, x *shapes, budget int64, opt logs.Options) []Session {
	return readJoined(t, files, x, budget, opt, 0)
}

// readJoined is readShapedWith, the records sorted by session as order
// says (see gatherer.index).
func readJoined(t *testing.T, files []string, x *shapes, budget int64, opt logs.Options, order recordOrder) []Session {
	t.Helper()
	j, err := NewJoiner(opt, budget, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	j.arena.shapes = x
	j.order = order
	for _, f := range files {
		in, err := logs.Open(f, logs.Auto, opt)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := j.Read(in, func(error) {}); err != nil {
			t.Fatal(err)
		}
		in.Close()
	}
	if j.Spilled() != (budget > 0) {
		t.Fatalf("budget %d: spilled %v", budget, j.Spilled())
	}
	var out []Session
	for s, err := range j.Sessions() {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// sameSessions reports how got differs from want, sessions built without
// shapes: in their meta, error, multi-trace or any event's origin.
func sameSessions(got, want []Session) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d sessions, want %d", len(got), len(want))
	}
	for i, g := range got {
		w := want[i]
		gm, wm := g.Meta, w.Meta
		gm.Origins, wm.Origins = nil, nil
		if !reflect.DeepEqual(gm, wm) || fmt.Sprint(g.Err) != fmt.Sprint(w.Err) || (g.MT == nil) != (w.MT == nil) {
			return fmt.Errorf("session %s: %+v %v, want %+v %v", g.ID, gm, g.Err, wm, w.Err)
		}
		if w.MT == nil {
			continue
		}
		if !reflect.DeepEqual(g.MT.Components, w.MT.Components) {
			return fmt.Errorf("session %s: %v, want %v", g.ID, g.MT.Components, w.MT.Components)
		}
		for c, comp := range w.MT.Components {
			for e := -1; e <= len(comp.Trace); e++ {
				go1, ok1 := g.Origins.At(c, e)
				wo, ok2 := w.Origins.At(c, e)
				if go1 != wo || ok1 != ok2 {
					return fmt.Errorf("session %s, event %d of component %d: origin %+v %v, want %+v %v", g.ID, e, c, go1, ok1, wo, ok2)
				}
			}
		}
		if _, ok := g.Origins.At(len(w.MT.Components), 0); ok {
			return fmt.Errorf("session %s: an origin past the components", g.ID)
		}
	}
	return nil
}

// TestShapes checks that the sessions a joiner builds with its shapes
// are those it builds without (their meta, multi-trace and origins), and
// that the sessions of a shape seen twice before share its multi-trace,
// which is the one built the second time: of every shape but those whose
// events build would reorder, drop (by seq) or reject. With spilling too.
func TestShapes(t *testing.T) {
	inputs, shareable := shapeLogs(t, t.TempDir())
	for k, files := range inputs {
		for _, budget := range []int64{0, 16 << 10} {
			want := readShaped(t, files, nil, budget)
			got := readShaped(t, files, newShapes(budget), budget)
			if err := sameSessions(got, want); err != nil {
				t.Fatalf("%d files, budget %d: %v", len(files), budget, err)
			}
			// A session of a template that has a shape is shared from the
			// second of its events on (templates of other keys may have the
			// same events), the others never.
			first := map[string]*Session{}
			kept := map[string]*multitrace.MultiTrace{}
			for i := range got {
				s := &got[i]
				if !shareable[k][i%len(shareable[k])] || s.MT == nil {
					if s.Shared {
						t.Errorf("%d files, budget %d: session %s shared", len(files), budget, s.ID)
					}
					continue
				}
				events := fmt.Sprint(s.MT.Components)
				switch f, ok := first[events]; {
				case !ok:
					first[events] = s
					if s.Shared {
						t.Errorf("%d files, budget %d: session %s, the first of its events, shared", len(files), budget, s.ID)
					}
				case !s.Shared:
					t.Errorf("%d files, budget %d: session %s not shared (the first of its events: %s)", len(files), budget, s.ID, f.ID)
				case kept[events] == nil:
					kept[events] = s.MT
				case kept[events] != s.MT:
					t.Errorf("%d files, budget %d: session %s shares another multi-trace", len(files), budget, s.ID)
				}
			}
			if len(kept) == 0 {
				t.Errorf("%d files, budget %d: %d multi-traces shared", len(files), budget, len(kept))
			}
		}
	}
}

// TestShapesCollision: a session whose shape's hash is that of a shape
// kept, but whose events are not its events, is built, not given the
// other's multi-trace.
func TestShapesCollision(t *testing.T) {
	inputs, _ := shapeLogs(t, t.TempDir())
	files := inputs[0]
	want := readShaped(t, files, nil, 0)
	x := newShapes(0)
	readShaped(t, files, x, 0)
	changed := 0
	for i := range x.slots {
		s := &x.slots[i]
		if s.mt == nil {
			continue
		}
		// The same lengths, another first action: only the hash is the same.
		other := &multitrace.MultiTrace{}
		for _, c := range s.mt.Components {
			tr := make([]interaction.MultiAction, len(c.Trace))
			copy(tr, c.Trace)
			other.Components = append(other.Components, multitrace.Component{Lifelines: c.Lifelines, Trace: tr})
		}
		for k, c := range other.Components {
			if len(c.Trace) > 0 {
				other.Components[k].Trace[0] = interaction.MultiAction{c.Trace[0][0] ^ 1}
				break
			}
		}
		s.mt = other
		changed++
	}
	if changed == 0 {
		t.Fatal("no shape kept")
	}
	got := readShaped(t, files, x, 0)
	if err := sameSessions(got, want); err != nil {
		t.Fatal(err)
	}
}

// TestShapesSpans: spans too (OTLP/JSON and Jaeger, each one file, with
// spilling), their pairing and their ids in the origins: the sessions a
// joiner builds with its shapes are those it builds without, and, in
// memory, repeated ones are shared.
func TestShapesSpans(t *testing.T) {
	sp, err := spec.Load("../testdata/lfrem/signature.hsf", "../testdata/lfrem/i1.hif")
	if err != nil {
		t.Fatal(err)
	}
	var mts []*multitrace.MultiTrace
	for _, k := range []gen.Kind{gen.KindAccepted, gen.KindNoise} {
		drawn, err := gen.Generate(sp.Store, sp.Root, gen.Config{Kind: k, N: 4, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		for range 5 {
			for i := range drawn {
				if drawn[i].Len() > 0 {
					mts = append(mts, &drawn[i])
				}
			}
		}
	}
	for _, f := range []logs.Format{logs.OTLP, logs.Jaeger} {
		var buf bytes.Buffer
		if err := gen.Write(&buf, f, sp.Sig, nil, mts, 1); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(t.TempDir(), map[logs.Format]string{logs.OTLP: "spans.otlp.json", logs.Jaeger: "spans.jaeger.json"}[f])
		if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		opt := logs.Options{Sig: sp.Sig}
		for _, budget := range []int64{0, 4 << 10} {
			want := readShapedWith(t, []string{file}, nil, budget, opt)
			got := readShapedWith(t, []string{file}, newShapes(budget), budget, opt)
			if err := sameSessions(got, want); err != nil {
				t.Fatalf("%s, budget %d: %v", f, budget, err)
			}
			shared := 0
			for _, s := range got {
				if s.Shared {
					shared++
				}
			}
			// Within 4 KiB, the shapes' sixteenth (256 bytes) holds none.
			if (shared == 0) != (budget > 0) {
				t.Errorf("%s, budget %d: %d sessions shared among %d", f, budget, shared, len(got))
			}
		}
	}
}

// TestSortedRecords: the sessions a joiner builds from its records sorted
// by session (gatherer.index, into new chunks or in place) are those it
// builds from the records in the order read: their meta, multi-traces and
// origins (the lines and span ids Fails name), for logs of repeated and
// mixed shapes, spans paired and duplicated (OTLP/JSON, one file and one
// log per service), and JSON Lines joined from two files.
func TestSortedRecords(t *testing.T) {
	inputs, _ := shapeLogs(t, t.TempDir())
	sig, err := interaction.NewSignature([]string{"a", "b", "c"}, []string{"m", "n"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	type run struct {
		files []string
		opt   logs.Options
	}
	var runs []run
	for _, files := range inputs {
		runs = append(runs, run{files, logs.Options{Sig: sig}})
	}
	abp, err := spec.Load("../testdata/abp/abp.hsf", "../testdata/abp/abp.hif")
	if err != nil {
		t.Fatal(err)
	}
	services, err := filepath.Glob("../testdata/logs/services/*")
	if err != nil || len(services) < 2 {
		t.Fatalf("services: %v %v", services, err)
	}
	opt := logs.Options{Sig: abp.Sig}
	runs = append(runs, run{[]string{"../testdata/logs/abp.jsonl"}, opt}, run{[]string{"../testdata/logs/abp.otlp.json"}, opt},
		run{[]string{"../testdata/logs/abp.otlp.json", "../testdata/logs/abp.otlp.json"}, opt}, run{services, opt})
	sorted := 0
	for _, r := range runs {
		want := readJoined(t, r.files, newShapes(0), 0, r.opt, unsorted)
		for _, order := range []recordOrder{0, inPlace} {
			got := readJoined(t, r.files, newShapes(0), 0, r.opt, order)
			if err := sameSessions(got, want); err != nil {
				t.Fatalf("%v, order %d: %v", r.files, order, err)
			}
		}
		if len(want) > 1 {
			sorted++
		}
	}
	if sorted < len(runs) {
		t.Fatalf("%d runs of several sessions among %d", sorted, len(runs))
	}
}
