package gen

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/random"
	"github.com/ivc-project/ivc/internal/reference"
	"github.com/ivc-project/ivc/multitrace"
)

// smallTerms returns n random terms of at most 8 actions, without sync.
func smallTerms(st *interaction.Store, seed uint64, n int) []interaction.Term {
	rng := random.New(seed)
	w := random.All()
	w.Sync = 0
	p := random.Params{MaxDepth: 4, MinActions: 2, Weights: w,
		Messages: random.MessageKinds{Passing: 4, Emission: 1, Reception: 1, Synch: 1}}
	var out []interaction.Term
	for len(out) < n {
		if t := random.Interaction(st, rng, p); st.NumActions(t) <= 8 {
			out = append(out, t)
		}
	}
	return out
}

func count(short, long int) int {
	if testing.Short() {
		return short
	}
	return long
}

// TestAcceptedByReference: every generated trace is a trace of the term for
// the reference semantics, and its projections are accepted multi-traces;
// prefixes are multi-prefixes and slices are slices, with the generated
// trace as a witness.
func TestAcceptedByReference(t *testing.T) {
	st := interaction.NewStore(random.Signature(3, 2))
	sig := st.Signature()
	rng := rand.New(rand.NewPCG(1, 2))
	opt := Options{MaxLength: 6, StopProbability: 0.3}
	partitions := []interaction.Locations{interaction.DiscreteLocations(sig), interaction.TrivialLocations(sig), {interaction.LifelinesOf(0, 2), interaction.LifelinesOf(1)}}
	terms := smallTerms(st, 11, count(40, 150))
	checked := 0
	for _, term := range terms {
		tr, err := Accepted(st, term, rng, opt)
		if err != nil {
			continue // some terms need more than 6 events
		}
		checked++
		if len(tr) > opt.MaxLength {
			t.Fatalf("%s: trace of %d events", st.Format(term), len(tr))
		}
		show := reference.Trace(tr).Format(sig)
		if !reference.Traces(st, term, len(tr)).Has(reference.Trace(tr)) {
			t.Errorf("%s: generated %s, not a trace for the reference", st.Format(term), show)
			continue
		}
		for _, p := range partitions {
			mt := Project(tr, p)
			if !reference.Accepts(st, term, mt) {
				t.Errorf("%s: %s on %s: projection not accepted", st.Format(term), show, p.Format(sig))
			}
			for range 3 {
				pre := Prefix(mt, rng)
				if !reference.IsMultiPrefix(st, term, pre, len(tr)) {
					t.Errorf("%s: %s: prefix %s is not a multi-prefix", st.Format(term), show, pre.Format(sig))
				}
				sl := Slice(mt, rng)
				if !reference.IsSlice(st, term, sl, len(tr)) {
					t.Errorf("%s: %s: slice %s is not a slice", st.Format(term), show, sl.Format(sig))
				}
			}
		}
	}
	if checked < len(terms)*3/4 {
		t.Errorf("only %d of %d terms had a trace of at most %d events", checked, len(terms), opt.MaxLength)
	}
}

func TestAcceptedBounds(t *testing.T) {
	st := interaction.NewStore(random.Signature(2, 2))
	rng := rand.New(rand.NewPCG(3, 4))
	// Five actions cannot fit in three events.
	long := st.MustParseTerm("strict(l1!m1,strict(l2?m1,strict(l2!m2,strict(l1?m2,l1!m1))))")
	if _, err := Accepted(st, long, rng, Options{MaxLength: 3, MaxTries: 20}); err == nil {
		t.Error("no error for a term longer than MaxLength")
	}
	tr, err := Accepted(st, long, rng, Options{MaxLength: 5})
	if err != nil || len(tr) != 5 {
		t.Errorf("got %v, %v", tr, err)
	}
	// A loop is unfolded at most MaxLength times, and ∅ gives ε.
	loop := st.MustParseTerm("loopS(l1!m1)")
	for range 50 {
		tr, err := Accepted(st, loop, rng, Options{MaxLength: 4, StopProbability: 0.01})
		if err != nil || len(tr) > 4 {
			t.Fatalf("got %v, %v", tr, err)
		}
	}
	if tr, err := Accepted(st, interaction.Empty, rng, Options{}); err != nil || len(tr) != 0 {
		t.Errorf("∅: got %v, %v", tr, err)
	}
}

// TestAcceptedMinLength: with MinLength, a walk does not stop before it,
// so that a loop's empty trace, where most walks would stop, is not drawn;
// the bounds are an error when nothing fits them, which says so.
func TestAcceptedMinLength(t *testing.T) {
	st := interaction.NewStore(random.Signature(2, 2))
	rng := rand.New(rand.NewPCG(5, 6))
	// Most walks of a loop of two-event rounds stop at once, or would pass
	// 4 events.
	loop := st.MustParseTerm("loopS(strict(l1!m1,l2?m1))")
	empty := 0
	for range 200 {
		tr, err := Accepted(st, loop, rng, Options{MaxLength: 4, StopProbability: 0.5})
		if err != nil {
			t.Fatal(err)
		}
		if len(tr) == 0 {
			empty++
		}
	}
	if empty < 50 {
		t.Errorf("%d empty traces of 200 without MinLength: the test no longer shows what MinLength is for", empty)
	}
	for range 200 {
		tr, err := Accepted(st, loop, rng, Options{MaxLength: 4, MinLength: 1, StopProbability: 0.5})
		if err != nil || len(tr) == 0 || len(tr)%2 != 0 || len(tr) > 4 {
			t.Fatalf("MinLength 1: got %v, %v", tr, err)
		}
	}
	for _, opt := range []Options{{MaxLength: 4, MinLength: 5}, {MaxLength: 3, MinLength: 3, MaxTries: 20}} {
		_, err := Accepted(st, loop, rng, opt)
		var be *BoundError
		if opt.MinLength <= opt.MaxLength && (!errors.As(err, &be) || be.Lengths() != "of 3 to 3 events") {
			t.Errorf("%+v: got %v, want a BoundError", opt, err)
		}
		if err == nil {
			t.Errorf("%+v: no error", opt)
		}
	}
}

func TestProject(t *testing.T) {
	sig := random.Signature(3, 4)
	tr := reference.MustParseTrace(sig, "l1!m1.l3?m1.{l2?m1,l3!m2}.l3!m4.l2?m4")
	p, _ := interaction.ParseLocations(sig, "l1,l2;l3")
	mt := Project(tr, p)
	want := "{\n\t[l1,l2] l1!m1.l2?m1.l2?m4;\n\t[l3] l3?m1.l3!m2.l3!m4\n}\n"
	if got := string(mt.Format(sig)); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// mtOf builds a discrete multi-trace from one trace per lifeline.
func mtOf(sig *interaction.Signature, comps ...string) multitrace.MultiTrace {
	var mt multitrace.MultiTrace
	for l, c := range comps {
		mt.Components = append(mt.Components, multitrace.Component{
			Lifelines: interaction.LifelinesOf(interaction.LifelineID(l)),
			Trace:     reference.MustParseTrace(sig, c)})
	}
	return mt
}

func formats(sig *interaction.Signature, mts ...multitrace.MultiTrace) string {
	var b bytes.Buffer
	for _, mt := range mts {
		b.Write(mt.Format(sig))
	}
	return b.String()
}

func TestDerivations(t *testing.T) {
	sig := random.Signature(3, 3)
	mt := mtOf(sig, "l1!m1.l1?m2.l1!m3", "l2?m1.l2?m1", "")
	orig := formats(sig, mt)
	rng := rand.New(rand.NewPCG(5, 6))
	for range 200 {
		pre := Prefix(mt, rng)
		sl := Slice(mt, rng)
		for k, c := range mt.Components {
			pc, sc := pre.Components[k], sl.Components[k]
			if pc.Lifelines != c.Lifelines || sc.Lifelines != c.Lifelines {
				t.Fatal("lifelines changed")
			}
			if !equalTraces(pc.Trace, c.Trace[:len(pc.Trace)]) {
				t.Fatalf("prefix %s", pre.Format(sig))
			}
			found := false
			for i := 0; i+len(sc.Trace) <= len(c.Trace); i++ {
				found = found || equalTraces(sc.Trace, c.Trace[i:i+len(sc.Trace)])
			}
			if !found {
				t.Fatalf("slice %s", sl.Format(sig))
			}
		}

		noisy := Noise(sig, mt, rng)
		added := 0
		for k, c := range noisy.Components {
			d := len(c.Trace) - len(mt.Components[k].Trace)
			added += d
			if d == 1 {
				// Removing one event gives the original back, and the new
				// event is one action on the component's lifelines.
				ok := false
				for i, e := range c.Trace {
					if len(e) == 1 && c.Lifelines.Has(e[0].Lifeline()) &&
						equalTraces(slices.Delete(slices.Clone(c.Trace), i, i+1), mt.Components[k].Trace) {
						ok = true
					}
				}
				if !ok {
					t.Fatalf("noise %s", noisy.Format(sig))
				}
			}
		}
		if added != 1 {
			t.Fatalf("noise added %d events: %s", added, noisy.Format(sig))
		}

		sw, ok := SwapActions(mt, rng)
		if !ok {
			t.Fatal("SwapActions found nothing to swap")
		}
		diff := 0
		for k, c := range sw.Components {
			o := mt.Components[k].Trace
			for i := range c.Trace {
				if !slices.Equal(c.Trace[i], o[i]) {
					if k == 1 {
						t.Fatalf("swapped two equal events: %s", sw.Format(sig))
					}
					diff++
				}
			}
		}
		if diff != 2 {
			t.Fatalf("swap changed %d events: %s", diff, sw.Format(sig))
		}
	}
	if formats(sig, mt) != orig {
		t.Fatal("a derivation modified its input")
	}
	if _, ok := SwapActions(mtOf(sig, "l1!m1.l1!m1", "l2?m1", ""), rng); ok {
		t.Error("SwapActions swapped equal events")
	}

	other := mtOf(sig, "l1!m1.l1?m2.l1!m3", "l2!m2", "l3?m3")
	for range 50 {
		sc, ok := SwapComponents(mt, other, rng)
		if !ok {
			t.Fatal("SwapComponents found nothing")
		}
		got := formats(sig, sc)
		if got != formats(sig, mtOf(sig, "l1!m1.l1?m2.l1!m3", "l2!m2", "")) &&
			got != formats(sig, mtOf(sig, "l1!m1.l1?m2.l1!m3", "l2?m1.l2?m1", "l3?m3")) {
			t.Fatalf("SwapComponents gave %s", got)
		}
	}
	if _, ok := SwapComponents(mt, mt, rng); ok {
		t.Error("SwapComponents of identical multi-traces")
	}
}

func TestGenerateDeterministic(t *testing.T) {
	st := interaction.NewStore(random.Signature(3, 2))
	sig := st.Signature()
	term := st.MustParseTerm("seq(loopW(strict(l1!m1,l2?m1)),par(strict(l2!m2,l3?m2),alt(l3!m1,strict(l1!m2,l3?m2))))")
	for k := KindAccepted; k <= KindSwapComp; k++ {
		gen := func(seed uint64) string {
			mts, err := Generate(st, term, Config{Kind: k, N: 20, Seed: seed, Options: Options{MaxLength: 10}})
			if err != nil {
				t.Fatalf("%s: %v", k, err)
			}
			if len(mts) != 20 {
				t.Fatalf("%s: %d multi-traces", k, len(mts))
			}
			return formats(sig, mts...)
		}
		if a, b := gen(1), gen(1); a != b {
			t.Errorf("%s: same seed, different batches", k)
		}
		if a, b := gen(1), gen(2); a == b {
			t.Errorf("%s: different seeds, same batch", k)
		}
	}
}

// TestGenerateVerdicts checks each kind against the reference where the
// kind determines the verdict.
func TestGenerateVerdicts(t *testing.T) {
	st := interaction.NewStore(random.Signature(3, 2))
	term := st.MustParseTerm("seq(strict(l1!m1,l2?m1),par(strict(l2!m2,l3?m2),alt(l3!m1,strict(l1!m2,l3?m2))))")
	n := st.NumActions(term)
	part, _ := interaction.ParseLocations(st.Signature(), "l1,l2;l3")
	for _, tc := range []struct {
		kind  Kind
		check func(multitrace.MultiTrace) bool
	}{
		{KindAccepted, func(mt multitrace.MultiTrace) bool { return reference.Accepts(st, term, mt) }},
		{KindPrefix, func(mt multitrace.MultiTrace) bool { return reference.IsMultiPrefix(st, term, mt, n) }},
		{KindSlice, func(mt multitrace.MultiTrace) bool { return reference.IsSlice(st, term, mt, n) }},
	} {
		mts, err := Generate(st, term, Config{Kind: tc.kind, N: 30, Seed: 9, Locations: part})
		if err != nil {
			t.Fatal(err)
		}
		for _, mt := range mts {
			if !tc.check(mt) {
				t.Errorf("%s: %s", tc.kind, mt.Format(st.Signature()))
			}
		}
	}
	// Inserting l3?m1 anywhere cannot be explained: no m1 reaches l3.
	mts, err := Generate(st, term, Config{Kind: KindNoise, N: 200, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	m1 := interaction.MakeAction(2, interaction.Reception, 0)
	for _, mt := range mts {
		for _, e := range mt.Components[2].Trace {
			if slices.Equal(e, interaction.MultiAction{m1}) && reference.IsMultiPrefix(st, term, mt, n) {
				t.Errorf("noise l3?m1 in a multi-prefix: %s", mt.Format(st.Signature()))
			}
		}
	}
}

func TestGenerateErrors(t *testing.T) {
	st := interaction.NewStore(random.Signature(2, 1))
	one := st.MustParseTerm("l1!m1")
	if _, err := Generate(st, one, Config{Kind: KindSwapAct, N: 1, From: FromAccepted}); err == nil ||
		!strings.Contains(err.Error(), "swap-act") {
		t.Errorf("swap-act of a single action: %v", err)
	}
	if _, err := Generate(st, one, Config{Kind: KindSwapComp, N: 1, From: FromAccepted}); err == nil {
		t.Error("swap-comp of identical multi-traces succeeded")
	}
	long := st.MustParseTerm("strict(l1!m1,strict(l2?m1,l1!m1))")
	if _, err := Generate(st, long, Config{Kind: KindAccepted, N: 1, Options: Options{MaxLength: 2, MaxTries: 5}}); err == nil {
		t.Error("no error for a term longer than MaxLength")
	}
	for _, s := range []string{"accepted", "prefix", "slice", "noise", "swap-act", "swap-comp"} {
		if k, err := ParseKind(s); err != nil || k.String() != s {
			t.Errorf("ParseKind(%q) = %v, %v", s, k, err)
		}
	}
	if _, err := ParseKind("swap"); err == nil {
		t.Error("ParseKind(swap) succeeded")
	}
	for _, s := range []string{"prefix", "slice", "accepted"} {
		if b, err := ParseBase(s); err != nil || b.String() != s {
			t.Errorf("ParseBase(%q) = %v, %v", s, b, err)
		}
	}
	if b, _ := ParseBase("slice"); b != FromSlice {
		t.Errorf("ParseBase(slice) = %d, want FromSlice", b)
	}
	if _, err := ParseBase("noise"); err == nil {
		t.Error("ParseBase(noise) succeeded")
	}
}

// TestAcceptedDeep: a deep nesting of operators, whose frontiers take
// memory and time quadratic in its depth, ends in a MemoryError within
// Options.MaxMemory, in bounded time; an error prints the interaction cut
// short.
func TestAcceptedDeep(t *testing.T) {
	st := interaction.NewStore(random.Signature(2, 2))
	x := st.MustParseTerm("strict(l1!m1,l2?m1)")
	const depth = 20000 // frontiers of 2·10⁸ elements in all
	deep, chain := x, x
	for range depth {
		deep, chain = st.Par(x, deep), st.Seq(x, chain)
	}
	start := time.Now()
	_, err := Accepted(st, deep, rand.New(rand.NewPCG(1, 2)), Options{MaxLength: 100, MaxMemory: 16 << 20})
	var me *MemoryError
	if !errors.As(err, &me) || time.Since(start) > 20*time.Second {
		t.Errorf("par nested %d deep: %v after %v, want a MemoryError at once", depth, err, time.Since(start))
	}
	_, err = Accepted(st, chain, rand.New(rand.NewPCG(1, 2)), Options{MaxLength: 3, MaxTries: 2})
	var be *BoundError
	if !errors.As(err, &be) || len(be.Term) > maxTermText+len("…") || !strings.HasSuffix(be.Term, "…") {
		t.Errorf("seq nested %d deep: %v, want a BoundError with the term cut short", depth, err)
	}
}
