//go:build sweep

package automata

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/nfa"
	"github.com/ivc-project/ivc/internal/random"
	"github.com/ivc-project/ivc/internal/synth"
	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/verdict"
)

// The reproducers of the limits at full size (minutes and gigabytes
// before, hence -tags sweep).

// TestSweepChain1001: the chain of 1001 messages (502,503 states) died at
// 6 GB in the projection; it compiles, projects and answers now, within
// a few hundred megabytes of live heap.
func TestSweepChain1001(t *testing.T) {
	sig := random.Signature(2, 1)
	st := interaction.NewStore(sig)
	term := st.MustParseTerm(chain(1001))
	e, err := New(st, term, Options{Mode: verdict.Prefix})
	if err != nil {
		t.Fatal(err)
	}
	mt, err := multitrace.ParseResolve("test.htf", []byte("{ [l1] l1!m1.l1!m1; [l2] l2?m1 }"), sig)
	if err != nil {
		t.Fatal(err)
	}
	if res := e.Check(mt); res.Verdict != verdict.WeakPass {
		t.Errorf("%s %s, want WeakPass", res.Verdict, res.Text())
	}
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	t.Logf("live heap %s", nfa.FormatBytes(int64(m.HeapAlloc)))
	if m.HeapAlloc > 1<<30 {
		t.Errorf("live heap %s, want under 1 GiB", nfa.FormatBytes(int64(m.HeapAlloc)))
	}
}

// TestSweepBoundedAttempts: with a build timeout of 2 s, the par of 12
// arrows (531,441 states: out of memory in the projection before) and abp's
// 400 copies of S -- d_zero -> K (61 s before auto fell back) end with a
// verdict or a limit: the compilation and the first partition's checker
// share one build timeout, checked in every stage.
func TestSweepBoundedAttempts(t *testing.T) {
	arrows := make([]string, 12)
	for i := range arrows {
		arrows[i] = "strict(l" + string(rune('a'+2*i)) + "!m1,l" + string(rune('a'+2*i+1)) + "?m1)"
	}
	for _, tc := range []struct {
		name string
		sig  *interaction.Signature
		term string
		opt  Options
	}{
		{"par of 12 arrows", lettered(24), nest("par", arrows), Options{Mode: verdict.Prefix, Timeout: 2 * time.Second}},
		{"400 copies, auto's attempt", random.Signature(2, 1), nest("par", repeat("strict(l1!m1,l2?m1)", 400)),
			Options{Mode: verdict.Prefix, MaxStates: 1 << 16, BuildTimeout: 2 * time.Second, MaxMemory: 512 << 20}},
	} {
		build := func(opt Options) error {
			st := interaction.NewStore(tc.sig)
			e, err := New(st, st.MustParseTerm(tc.term), opt)
			if err == nil {
				_, err = e.Checker(interaction.DiscreteLocations(tc.sig))
			}
			return err
		}
		err := build(tc.opt)
		var le *nfa.LimitError
		var se *synth.StateLimitError
		t.Logf("%s: %v", tc.name, err)
		if err != nil && !errors.As(err, &le) && !errors.As(err, &se) {
			t.Errorf("%s: %v", tc.name, err)
		}
		// How soon the timeout ends the attempt depends on the machine's
		// load and is not asserted; that every stage checks it is: past its
		// deadline, the attempt stops at once, with a time limit, having
		// allocated little (the states and tables it would build take
		// gigabytes).
		past := tc.opt
		if past.BuildTimeout > 0 {
			past.BuildTimeout = time.Nanosecond
		} else {
			past.Timeout = time.Nanosecond
		}
		cost := testutil.Measure(func() { err = build(past) })
		if !errors.As(err, &le) || le.Limit != nfa.LimitTime || cost.Bytes > 64<<20 {
			t.Errorf("%s, past the timeout: %v, after %d bytes allocated", tc.name, err, cost.Bytes)
		}
	}
}

// lettered returns a signature of n lifelines la, lb, ... and message m1.
func lettered(n int) *interaction.Signature {
	ls := make([]string, n)
	for i := range ls {
		ls[i] = "l" + string(rune('a'+i))
	}
	sig, err := interaction.NewSignature(ls, []string{"m1"}, nil)
	if err != nil {
		panic(err)
	}
	return sig
}

func repeat(x string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = x
	}
	return out
}

// nest returns op(x1, op(x2, ... xn)).
func nest(op string, xs []string) string {
	var b strings.Builder
	for _, x := range xs[:len(xs)-1] {
		b.WriteString(op + "(" + x + ",")
	}
	return b.String() + xs[len(xs)-1] + strings.Repeat(")", len(xs)-1)
}
