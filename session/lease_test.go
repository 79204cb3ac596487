package session_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/internal/gen"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/session"
)

// TestSourceReuse: a Source that reuses the storage of released sessions
// (Reuse) hands out the sessions a Source that does not hands out, each
// with its multi-trace and origins while it is held, in memory, spilled
// and with repeated sessions (shared multi-traces); a released session's
// storage serves the next one; a session released twice, through two
// copies of it, gives its storage back once; and a session never released
// keeps its own.
func TestSourceReuse(t *testing.T) {
	sp, mts, _ := abpTraces(t)
	sig := sp.Sig
	// Distinct sessions, and each of the ABP traces again (repeated:
	// shared when seen a third time).
	drawn, err := gen.Generate(sp.Store, sp.Root, gen.Config{Kind: gen.KindAccepted, N: 300, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	var all []multitrace.MultiTrace
	for _, mt := range mts {
		all = append(all, *mt)
	}
	all = append(all, drawn...)
	for range 3 {
		all = append(all, all[:3]...)
	}
	path := filepath.Join(t.TempDir(), "run.jsonl")
	mts, err = gen.WriteFile(path, logs.JSONL, sig, all)
	if err != nil {
		t.Fatal(err)
	}
	// dump says what a session holds: its multi-trace and the origin of
	// each event.
	dump := func(s *session.Session) string {
		if s.Err != nil {
			return s.Err.Error()
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%s %d: %s |", s.ID, s.Line, bytes.Join(bytes.Fields(s.MT.Format(sig)), []byte(" ")))
		for c, comp := range s.MT.Components {
			for i := range comp.Trace {
				o, ok := s.Origins.At(c, i)
				fmt.Fprintf(&b, " %v%v", o, ok)
			}
		}
		return b.String()
	}
	for _, budget := range []int64{0, 32 << 10} {
		read := func(reuse bool) (dumps []string, same, shared int, src *session.Source) {
			src = &session.Source{Options: logs.Options{Sig: sig}, Budget: budget, TmpDir: t.TempDir(), Reuse: reuse}
			var last *session.Origins
			for s := range src.Sessions([]string{path}) {
				dumps = append(dumps, dump(&s))
				if s.Shared {
					shared++
				}
				if s.Origins == last {
					same++
				}
				last = s.Origins
				s.Release()
			}
			return dumps, same, shared, src
		}
		want, _, _, plain := read(false)
		got, same, shared, src := read(true)
		if len(want) != len(mts) || shared == 0 || plain.Counts.Spilled != (budget > 0) || fmt.Sprint(src.Counts) != fmt.Sprint(plain.Counts) {
			t.Fatalf("budget %d: %d sessions (want %d), %d shared, %+v; reused: %+v", budget, len(want), len(mts), shared, plain.Counts, src.Counts)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("budget %d, session %d, reused:\n%s\nwant:\n%s", budget, i, got[i], want[i])
			}
		}
		// Each session after the first is built in the storage of the one
		// released before it (a shared one: its origins).
		if same != len(mts)-1 {
			t.Errorf("budget %d: %d of %d sessions built in the storage released before them", budget, same, len(mts))
		}
	}

	// Held, not released: each keeps its own storage; released twice: once.
	src := &session.Source{Options: logs.Options{Sig: sig}, Reuse: true}
	var held []session.Session
	var dumps []string
	for s := range src.Sessions([]string{path}) {
		if len(held) == 3 {
			break
		}
		held = append(held, s)
		dumps = append(dumps, dump(&s))
	}
	for i := range held {
		if d := dump(&held[i]); d != dumps[i] {
			t.Errorf("session %d, held while others were built:\n%s\nwant:\n%s", i, d, dumps[i])
		}
	}
	src = &session.Source{Options: logs.Options{Sig: sig}, Reuse: true}
	var first session.Session
	var live []*session.Origins
	for s := range src.Sessions([]string{path}) {
		switch {
		case first.Origins == nil:
			first = s
			copied := s
			copied.Release()
			s.Release() // through another copy: nothing
		case len(live) < 2:
			live = append(live, s.Origins) // held
		default:
			if live[0] == live[1] {
				t.Fatal("two sessions held at once share their storage: the first session's was given back twice")
			}
			if live[0] != first.Origins {
				t.Errorf("the session after a released one is not built in its storage")
			}
			return
		}
	}
	t.Fatal("fewer than 3 sessions")
}
