package automata

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/nfa"
	"github.com/ivc-project/ivc/internal/random"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/verdict"
)

// TestVerdictMemo: an engine that judged multi-traces before (its memo of
// verdicts) gives each multi-trace, judged again and again in turn with
// others, the result a fresh engine gives it: on random interactions of
// the compiled sublanguage, multi-traces of draw's four partitions and
// kinds (accepted, prefixes, noise, swaps, slices, so Fails too), in both
// modes.
func TestVerdictMemo(t *testing.T) {
	sig := random.Signature(4, 2)
	seeds := 12
	if testing.Short() {
		seeds = 4
	}
	judged, remembered := 0, 0
	for seed := range uint64(seeds) {
		rng := random.New(seed + 100)
		st := interaction.NewStore(sig)
		term := random.Interaction(st, rng, random.Params{MaxDepth: 3, MinActions: 3, Weights: random.Conservative(),
			Messages: random.DefaultMessages(), Compilable: true})
		var mts []multitrace.MultiTrace
		for k := range 40 {
			if mt, ok := draw(st, term, rng, k%8); ok {
				mts = append(mts, mt)
			}
		}
		for _, mode := range []verdict.Mode{verdict.Accept, verdict.Prefix} {
			used, err := New(st, term, Options{Mode: mode})
			if err != nil {
				t.Fatalf("%s: %v", st.Format(term), err)
			}
			want := make([]verdict.Result, len(mts))
			for i := range mts {
				fresh, err := New(st, term, Options{Mode: mode})
				if err != nil {
					t.Fatal(err)
				}
				want[i] = fresh.Check(&mts[i])
			}
			for round := range 3 {
				for i := range mts {
					j := (i*7 + round*5) % len(mts) // an order of its own each round
					got := used.Check(&mts[j])
					judged++
					if round > 0 && (got.Verdict == verdict.Pass || got.Verdict == verdict.WeakPass) {
						remembered++
					}
					if !reflect.DeepEqual(got, want[j]) {
						t.Fatalf("%s on %s %s, round %d: %+v, a fresh engine %+v", st.Format(term), mts[j].Format(sig), mode, round, got, want[j])
					}
				}
			}
		}
	}
	if remembered == 0 {
		t.Fatalf("%d judgments, none of a Pass or WeakPass judged before", judged)
	}
}

// TestLetterBufMemo: the memo of a letterBuf tells the partitions apart by
// their ids (the same letters stand for other events in another), keeps
// what depends on the multi-trace alone (a Pass, a WeakPass no limit
// decided), and starts again empty past maxMemo.
func TestLetterBufMemo(t *testing.T) {
	var b letterBuf
	l0, l1 := &located{id: 0}, &located{id: 1}
	letters := [][]nfa.Letter{{1, 2}, {}, {3}}
	pass := verdict.Result{Verdict: verdict.Pass, Mode: verdict.Prefix, Nodes: 7}
	if r, h := b.remembered(l0, letters); r != nil {
		t.Fatalf("empty memo: %+v", r)
	} else {
		b.remember(h, pass)
	}
	if r, _ := b.remembered(l0, letters); r == nil || !reflect.DeepEqual(*r, pass) {
		t.Fatalf("remembered %+v, want %+v", r, pass)
	}
	if r, _ := b.remembered(l1, letters); r != nil {
		t.Fatalf("another partition, same letters: %+v", r)
	}
	// The same letters split otherwise are another multi-trace.
	if r, _ := b.remembered(l0, [][]nfa.Letter{{1}, {2}, {3}}); r != nil {
		t.Fatalf("other traces: %+v", r)
	}
	for _, res := range []verdict.Result{
		{Verdict: verdict.Fail, Reason: verdict.LocalError, Explanation: &verdict.Explanation{}},
		{Verdict: verdict.Inconc, Reason: verdict.NodeLimit},
		{Verdict: verdict.WeakPass, Reason: verdict.Timeout, Detail: "undecided"},
	} {
		_, h := b.remembered(l1, letters)
		b.remember(h, res)
		if r, _ := b.remembered(l1, letters); r != nil {
			t.Fatalf("%v kept: %+v", res.Verdict, r)
		}
	}
	for i := range maxMemo {
		_, h := b.remembered(l1, [][]nfa.Letter{{nfa.Letter(i)}})
		b.remember(h, pass)
	}
	if n := b.memo.Size(); n == 0 || n > maxMemo {
		t.Fatalf("memo of %d entries, want 1 to %d", n, maxMemo)
	}
	if r, _ := b.remembered(l0, letters); r != nil {
		t.Fatal(fmt.Sprint("kept past maxMemo: ", r))
	}
}
