package engine_test

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/internal/nfa"
	"github.com/ivc-project/ivc/internal/nfa/engine"
)

// randomChecker returns the checker of a random trim NFA of at most n
// states over nsym symbols, split into at most nloc locations, or nil when
// the NFA has no useful state.
func randomChecker(t testing.TB, rng *rand.Rand, n, nsym, nloc int, opt nfa.CheckerOptions) *nfa.Checker {
	t.Helper()
	b := nfa.NewBuilder()
	var syms []nfa.Symbol
	for x := range nsym {
		syms = append(syms, b.Symbol(fmt.Sprintf("s%d", x)))
	}
	for range n {
		b.State(rng.IntN(3) == 0)
	}
	b.Initial(0)
	for range rng.IntN(2*n*nsym + 1) {
		b.Transition(nfa.State(rng.IntN(n)), syms[rng.IntN(nsym)], nfa.State(rng.IntN(n)))
	}
	a := b.Build().Trim()
	if a.NumStates() == 0 {
		return nil
	}
	locs := nfa.RandomAlphabets(a.Symbols(), 1+rng.IntN(nloc), rng.Uint64())
	opt.MaxProjStates = 500
	c, err := nfa.NewChecker(a, locs, opt)
	if errors.Is(err, nfa.ErrTooManyStates) {
		return nil // a projection too large for a quick test
	}
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// randomTrace returns a random trace of location i, mostly of its letters.
func randomTrace(rng *rand.Rand, p *engine.Proj, n int) []engine.Action {
	tr := make([]engine.Action, rng.IntN(n+1))
	for j := range tr {
		tr[j] = p.Base + engine.Action(rng.IntN(p.K+1)) // K: no letter
		if rng.IntN(20) > 0 && p.K > 0 {
			tr[j] = p.Base + engine.Action(rng.IntN(p.K))
		}
	}
	return tr
}

// TestSource checks what gen relies on to copy the engine: Source holds
// every file of the package but source.go and the tests, and each starts
// with the package clause.
func TestSource(t *testing.T) {
	onDisk, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, name := range onDisk {
		if !strings.HasSuffix(name, "_test.go") && name != "source.go" {
			want = append(want, name)
		}
	}
	got, err := fs.Glob(engine.Source, "*")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Source holds %v, want %v: update the go:embed line of source.go", got, want)
	}
	for _, name := range got {
		src, err := fs.ReadFile(engine.Source, name)
		if err != nil {
			t.Fatal(err)
		}
		disk, _ := os.ReadFile(name)
		if !bytes.HasPrefix(src, []byte("package engine\n")) || !bytes.Equal(src, disk) {
			t.Errorf("%s: must start with the package clause (no comment before it)", name)
		}
	}
}

// TestWalk compares, on random automata, locations and traces (with
// actions that are no letters, and traces that get stuck), the local check
// one event at a time (Step), by slices (StepAll: words of up to four
// letters per lookup), and a walk on the projection's table: the same area,
// end state and stuck position. It fails when some word length is never
// exercised.
func TestWalk(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 7))
	widths := map[int]int{}
	for range 300 {
		c := randomChecker(t, rng, 1+rng.IntN(12), 2+rng.IntN(7), 3, nfa.CheckerOptions{})
		if c == nil {
			continue
		}
		tb := c.Tables()
		tw := (len(tb.Trans) + 63) / 64
		for i := range tb.Projs {
			p := &tb.Projs[i]
			widths[p.WordLen()]++
			for range 20 {
				trace := randomTrace(rng, p, 40)
				// The reference: one letter at a time on the table.
				want := slices.Clone(p.Init)
				q, wantStuck := p.Start, -1
				for j, a := range trace {
					x := int(a - p.Base)
					if q < 0 || x < 0 || x >= p.K || p.Next[int(q)*p.K+x] < 0 {
						wantStuck = j
						break
					}
					ar := int(p.AreaOf[int(q)*p.K+x]) * tw
					for k := range want {
						want[k] |= p.Areas[ar+k]
					}
					q = p.Next[int(q)*p.K+x]
				}
				if p.Start < 0 {
					wantStuck = 0 // an empty projection: nothing to read
				}
				one, all := tb.NewLocalVerifier(engine.Location(i)), tb.NewLocalVerifier(engine.Location(i))
				for _, a := range trace {
					one.Step(a)
				}
				// StepAll in two slices, to resume a walk too.
				cut := rng.IntN(len(trace) + 1)
				all.StepAll(trace[:cut])
				all.StepAll(trace[cut:])
				for _, v := range []*engine.LocalVerifier{one, all} {
					area := v.Area()
					if v.Stuck() != wantStuck || v.State() != q || !slices.Equal(area.Exact, want) || v.Len() != len(trace) {
						t.Fatalf("location %d (words of %d, %d letters), trace %v: stuck %d at state %d, area %v; want %d, %d, %v",
							i, p.WordLen(), p.K, trace, v.Stuck(), v.State(), area.Exact, wantStuck, q, want)
					}
				}
			}
		}
	}
	for w := 2; w <= 4; w++ {
		if widths[w] == 0 {
			t.Errorf("no projection read words of %d letters: %v", w, widths)
		}
	}
}

// TestHasAcceptingPath compares the accepting-path check of automata of at
// most 64 states, on words, with the general one, on random automata and
// random sub-automata.
func TestHasAcceptingPath(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(64, 64))
	for range 400 {
		c := randomChecker(t, rng, 1+rng.IntN(64), 1+rng.IntN(4), 1, nfa.CheckerOptions{NoPruning: true})
		if c == nil {
			continue
		}
		tb := c.Tables()
		sub := make([]uint64, (len(tb.Trans)+63)/64)
		for k := range tb.Trans {
			if rng.IntN(3) > 0 {
				sub[k>>6] |= 1 << (k & 63)
			}
		}
		if got, want := tb.HasAcceptingPath(sub, true), tb.HasAcceptingPath(sub, false); got != want {
			t.Fatalf("on words %v, in general %v, on %v", got, want, c.NFA())
		}
	}
}

// TestEncode checks that DecodeTables reads back what Encode wrote, with and
// without the backward projections.
func TestEncode(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for it := range 200 {
		c := randomChecker(t, rng, 1+rng.IntN(80), 1+rng.IntN(6), 4, nfa.CheckerOptions{NoPruning: it%2 == 1})
		if c == nil {
			continue
		}
		enc := c.Tables().Encode()
		got, err := engine.DecodeTables(enc[:len(enc)/2], enc[len(enc)/2:])
		if err != nil {
			t.Fatalf("%v on %q", err, enc)
		}
		if again := got.Encode(); again != enc {
			t.Fatalf("decoded tables encode differently:\n%s\n%s", enc, again)
		}
		if !reflect.DeepEqual(got.Projs[0].Next, c.Tables().Projs[0].Next) {
			t.Fatal("a projection's table differs")
		}
	}
	if _, err := engine.DecodeTables("B"); err == nil {
		t.Error("DecodeTables accepts tables of another engine version")
	}
}

// FuzzDecodeTables checks that any input decodes to tables a checker can
// use, or to an error: never a panic. Decoded tables encode to a form that
// decodes to the same tables.
func FuzzDecodeTables(f *testing.F) {
	rng := rand.New(rand.NewPCG(5, 5))
	for f.Add(""); len(f.Name()) > 0; {
		c := randomChecker(f, rng, 1+rng.IntN(8), 1+rng.IntN(3), 3, nfa.CheckerOptions{})
		if c != nil {
			f.Add(c.Tables().Encode())
		}
		if rng.IntN(10) == 0 {
			break
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		tb, err := engine.DecodeTables(s)
		if err != nil {
			return
		}
		again := tb.Encode()
		tb2, err := engine.DecodeTables(again)
		if err != nil || tb2.Encode() != again {
			t.Fatalf("%q decodes, encodes as %q, which does not decode the same (%v)", s, again, err)
		}
		c, err := engine.NewChecker(tb, engine.Options{MaxNodes: 1000})
		if err != nil {
			t.Fatal(err)
		}
		mt := make([][]engine.Action, tb.NumLocations())
		for i := range mt {
			p := &tb.Projs[i]
			mt[i] = []engine.Action{p.Base, p.Base + engine.Action(p.K) - 1, -1}
		}
		for _, mode := range []engine.Mode{engine.Accept, engine.Prefix} {
			c.Check(mt, mode)
			c.CheckAC(mt, mode)
		}
	})
}

// TestCheckCentral compares, on random automata and multi-traces, Check
// with CheckCentral on the areas of the local verifiers shipped through
// MarshalBinary, and the verdicts of Check with those of the centralized
// procedure (CheckAC), in both modes.
func TestCheckCentral(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 11))
	verdicts := map[string]int{}
	for range 300 {
		c := randomChecker(t, rng, 1+rng.IntN(10), 2+rng.IntN(5), 4, nfa.CheckerOptions{})
		if c == nil {
			continue
		}
		tb := c.Tables()
		ec := c.Engine()
		for range 10 {
			mt := make([][]engine.Action, tb.NumLocations())
			for i := range mt {
				mt[i] = randomTrace(rng, &tb.Projs[i], 6)
				if rng.IntN(3) == 0 {
					mt[i] = slices.DeleteFunc(mt[i], func(a engine.Action) bool { return a-tb.Projs[i].Base >= engine.Action(tb.Projs[i].K) })
				}
			}
			areas := make([]engine.Area, len(mt))
			for i := range mt {
				v := tb.NewLocalVerifier(engine.Location(i))
				v.StepAll(mt[i])
				area := v.Area()
				data, err := area.MarshalBinary()
				if err != nil {
					t.Fatal(err)
				}
				if err := areas[i].UnmarshalBinary(data); err != nil {
					t.Fatal(err)
				}
			}
			for _, mode := range []engine.Mode{engine.Accept, engine.Prefix} {
				want := ec.Check(mt, mode)
				got, err := ec.CheckCentral(areas, mt, mode)
				if err != nil || !reflect.DeepEqual(got, want) {
					t.Fatalf("%v %s: CheckCentral %+v (%v), Check %+v", mt, mode, got, err, want)
				}
				if ac := ec.CheckAC(mt, mode); ac.Verdict != want.Verdict {
					t.Fatalf("%v %s: AC %v, AS %v", mt, mode, ac, want)
				}
				verdicts[mode.String()+" "+want.Verdict.String()+" "+want.Reason.String()]++
			}
		}
	}
	for _, v := range []string{"accept Pass ", "accept Fail LocalError", "accept Fail CentralError", "prefix WeakPass ", "accept Fail InterError"} {
		if verdicts[v] == 0 {
			t.Errorf("no %q among %v", v, verdicts)
		}
	}
	// Areas that do not fit the tables or the traces are refused.
	var c *nfa.Checker
	for seed := uint64(0); c == nil; seed++ {
		c = randomChecker(t, rand.New(rand.NewPCG(1, seed)), 4, 3, 1, nfa.CheckerOptions{})
	}
	mt := make([][]engine.Action, c.Tables().NumLocations())
	areas := make([]engine.Area, len(mt))
	if _, err := c.Engine().CheckCentral(areas, mt, engine.Accept); err == nil {
		t.Error("CheckCentral accepts areas of no words")
	}
}

// FuzzArea checks that UnmarshalBinary reads back what MarshalBinary wrote
// and refuses anything else without panicking.
func FuzzArea(f *testing.F) {
	a := engine.Area{Exact: []uint64{5, 1 << 63}, Future: []uint64{7, 1<<63 | 1}, Len: 3, Stuck: -1, End: 2, Final: true}
	data, _ := a.MarshalBinary()
	f.Add(data)
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		var a engine.Area
		if err := a.UnmarshalBinary(data); err != nil {
			return
		}
		again, err := a.MarshalBinary()
		if err != nil || !bytes.Equal(again, data) {
			t.Fatalf("%x reads as %+v, which writes %x (%v)", data, a, again, err)
		}
	})
}
