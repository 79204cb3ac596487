package automata

import (
	"path/filepath"
	"runtime"
	"testing"

	"github.com/ivc-project/ivc/internal/nfa"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/verdict"
)

// TestFirstCheckPrepared checks that Prepare does the one-time work of a
// partition, so that the first check of a multi-trace allocates no more
// than a later check of the same one: the checker's working memory is made
// and sized when it is built (a warm-up check), not by the first
// multi-trace, whose elapsed time would count it (ivc prints setup apart).
// It counts the central check's allocations (the explanation's text takes
// fmt's printers, which the process makes once per processor, and which a
// collection may drop).
func TestFirstCheckPrepared(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "testdata", "lfrem")
	sp, err := spec.Load(filepath.Join(dir, "signature.hsf"), filepath.Join(dir, "i14.hif"))
	if err != nil {
		t.Fatal(err)
	}
	// Multi-traces of the lifeline-removal corpus (i14_accepted/trace1,
	// trace13, i14_slices/trace13s1, i14_swap_act/trace13s1_swap_act).
	for _, htf := range []string{
		"{ [l1] ; [l2] ; [l3] l3?m5; [l4] ; [l5] }",
		"{ [l1] l1!m5.l1?m1.l1?m1; [l2] l2?m2.l2?m4; [l3] l3?m5.l3?m6; [l4] l4!m2.l4!m3.l4!m2; [l5] l5?m6.l5!m1.l5?m1 }",
		"{ [l1] ; [l2] ; [l3] l3?m5; [l4] l4!m2.l4!m3; [l5] l5?m6 }",
		"{ [l1] ; [l2] ; [l3] l3?m5; [l4] l4!m3.l4!m2; [l5] l5?m6 }",
	} {
		mt, err := multitrace.ParseResolve("test.htf", []byte(htf), sp.Sig)
		if err != nil {
			t.Fatal(err)
		}
		for _, mode := range []nfa.Mode{nfa.Prefix, nfa.Accept} {
			// The fewest of a few fresh engines: the count is the
			// process's, where a background goroutine may allocate too.
			first, later := uint64(1<<63), uint64(0)
			var res nfa.Result
			for range 3 {
				e, err := New(sp.Store, sp.Root, Options{})
				if err != nil {
					t.Fatal(err)
				}
				if _, err := e.Prepare(mt); err != nil {
					t.Fatal(err)
				}
				c, err := e.Checker(mt.Locations())
				if err != nil {
					t.Fatal(err)
				}
				letters, err := e.Letters(mt)
				if err != nil {
					t.Fatal(err)
				}
				first = min(first, mallocs(func() { res = c.CheckAS(letters, mode) }))
				later = max(later, mallocs(func() { c.CheckAS(letters, mode) }))
			}
			if first > later {
				t.Errorf("%s, %s (%s): the first check allocates %d objects, a later one %d", htf, mode, res.Verdict, first, later)
			}
		}
	}
}

// mallocs returns the heap objects f allocates.
func mallocs(f func()) uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	before := m.Mallocs
	f()
	runtime.ReadMemStats(&m)
	return m.Mallocs - before
}

// TestCheckAllocs checks that a check of a small multi-trace allocates
// nothing once its partition's checker is built: it finds the checker by
// a key on the stack, and maps the events into letters it reuses (before,
// the partition's key and its Locations, twice, and the letters: 9
// objects).
func TestCheckAllocs(t *testing.T) {
	e, mt := i14Engine(t, "{ [l1] l1!m5.l1?m1.l1?m1; [l2] l2?m2.l2?m4; [l3] l3?m5.l3?m6; [l4] l4!m2.l4!m3.l4!m2; [l5] l5?m6.l5!m1.l5?m1 }")
	if _, err := e.Prepare(mt); err != nil {
		t.Fatal(err)
	}
	var res verdict.Result
	if n := testing.AllocsPerRun(100, func() { res = e.Check(mt) }); n > 0 || !res.Verdict.OK() {
		t.Errorf("%s: %v allocations a check, want none", res.Verdict, n)
	}
}

// TestCheckSetup checks that CheckSetup reports the building of a
// partition's checker once, as setup, and answers as Check does, without
// allocating once the checker is built.
func TestCheckSetup(t *testing.T) {
	e, mt := i14Engine(t, "{ [l1] l1!m5; [l2] ; [l3] ; [l4] ; [l5] }")
	res, setup, err := e.CheckSetup(mt)
	if err != nil || setup <= 0 {
		t.Fatalf("first CheckSetup: setup %v, error %v; want the building's time, no error", setup, err)
	}
	if want := e.Check(mt); res.Text() != want.Text() {
		t.Errorf("CheckSetup answered %s, Check %s", res.Text(), want.Text())
	}
	if n := testing.AllocsPerRun(100, func() { res, setup, err = e.CheckSetup(mt) }); n > 0 || setup != 0 || err != nil {
		t.Errorf("CheckSetup once built: %v allocations, setup %v, error %v; want none, 0, nil", n, setup, err)
	}
}

// i14Engine returns an engine of lfrem's i14 and the multi-trace text.
func i14Engine(t *testing.T, text string) (*Engine, *multitrace.MultiTrace) {
	t.Helper()
	dir := filepath.Join("..", "..", "..", "testdata", "lfrem")
	sp, err := spec.Load(filepath.Join(dir, "signature.hsf"), filepath.Join(dir, "i14.hif"))
	if err != nil {
		t.Fatal(err)
	}
	mt, err := multitrace.ParseResolve("test.htf", []byte(text), sp.Sig)
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(sp.Store, sp.Root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return e, mt
}
