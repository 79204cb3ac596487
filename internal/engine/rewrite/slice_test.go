package rewrite

import (
	"testing"

	"github.com/ivc-project/ivc/verdict"
)

// The worked examples of the slice paper (notes-partial-observation.md §6,
// T2–T10), in slice mode with the paper's budget and with the liberal one.
func TestSliceExamples(t *testing.T) {
	liberal := DefaultSimulation()
	tests := []struct {
		name, lifelines, messages, term, mt string
		want, wantLiberal                   verdict.Verdict
	}{
		// T2: a multi-prefix (the loopP iteration needs l2!m5, l3?m5), so a slice.
		{"T2 (Fig. 5)", "l1,l2,l3", "m1,m2,m3,m4,m5", jotI0,
			"[l1,l2] l1!m1.l2?m1.l2?m4; [l3] l3?m1.l3!m4", verdict.WeakPass, verdict.WeakPass},
		// T3: {l1,l2} starts late (l1!m1, l2?m1 missing), {l3} ends early.
		{"T3 (Figs. 6–7)", "l1,l2,l3", "m1,m2,m3,m4,m5", jotI0,
			"[l1,l2] l2?m4; [l3] l3?m1", verdict.WeakPass, verdict.WeakPass},
		{"T4 (Fig. 8)", "l1,l2", "m1,m2", "seq(loopW(strict(l1!m1,l2?m1)),strict(l1!m2,l2?m2))",
			"[l1] l1!m1; [l2] l2?m2", verdict.WeakPass, verdict.WeakPass},
		{"T5 (Fig. 9)", "l1,l2", "m1,m2", "seq(loopW(strict(l1!m1,l2?m1)),strict(l2!m2,l1?m2))",
			"[l1] l1!m1.l1?m2; [l2] l2?m1.l2?m1.l2!m2", verdict.WeakPass, verdict.WeakPass},
		{"T6 (Fig. 10a)", "l1,l2", "m1", "loopW(strict(l1!m1,l2?m1))",
			"[l1] ; [l2] l2?m1.l2?m1", verdict.WeakPass, verdict.WeakPass},
		// T8–T10: the paper's criterion gives up; the liberal one does not.
		{"T8 (Fig. 11a)", "l", "m1,m2", "loopP(seq(l!m1,l?m2))",
			"[l] l?m2.l?m2.l?m2", verdict.Inconc, verdict.WeakPass},
		{"T9 (Fig. 11b)", "l1,l2", "m", "loopW(strict(l1!m,l2?m))",
			"[l1,l2] l2?m.l2?m", verdict.Inconc, verdict.WeakPass},
		// T10: l1 is never observed; ivc removes it instead of simulating its
		// actions, so the paper's Inconc becomes an answer.
		{"T10 (Fig. 11c)", "l1,l2", "m1,m2", "coreg(l2)(loopW(strict(l1!m1,l2?m1)),loopW(strict(l1!m2,l2?m2)))",
			"[l1] ; [l2] l2?m2.l2?m1", verdict.WeakPass, verdict.WeakPass},
		// Exactly accepted stays Pass; what is no slice at all fails.
		{"accepted", "l1,l2", "m1,m2", "seq(loopW(strict(l1!m1,l2?m1)),strict(l1!m2,l2?m2))",
			"[l1] l1!m1.l1!m2; [l2] l2?m1.l2?m2", verdict.Pass, verdict.Pass},
		{"not a slice", "l1,l2", "m1,m2", "strict(l1!m1,l2?m2)", "[l1] l1!m1; [l2] l2?m1", verdict.Fail, verdict.Fail},
		{"not a slice, order", "l1,l2", "m1,m2", "seq(l1!m1,l1!m2)", "[l1] l1!m2.l1!m1", verdict.Fail, verdict.Fail},
	}
	for _, tc := range tests {
		st := storeOf(t, tc.lifelines, tc.messages)
		term := st.MustParseTerm(tc.term)
		mt := mtOf(t, st.Signature(), tc.mt)
		for _, cfg := range configs {
			for _, sim := range []Simulation{PaperSimulation(), liberal} {
				want := tc.want
				if !sim.Reset {
					want = tc.wantLiberal
				}
				res := New(st, term, Options{Mode: verdict.Slice, POR: cfg.por, LOC: cfg.loc, Simulation: sim}).Check(mt)
				if res.Verdict != want {
					t.Errorf("%s, %s, reset=%v: %s (%s), want %s", tc.name, cfg.name, sim.Reset, res.Verdict, res.Reason, want)
				}
			}
		}
	}
}

// TestSliceExplanation: T3's explanation simulates l1!m1 and l2?m1 before
// {l1,l2}'s observation starts (l3!m4 is after {l3}'s end: removed).
func TestSliceExplanation(t *testing.T) {
	st := storeOf(t, "l1,l2,l3", "m1,m2,m3,m4,m5")
	res := New(st, st.MustParseTerm(jotI0), DefaultOptions()).Check(mtOf(t, st.Signature(), "[l1,l2] l2?m4; [l3] l3?m1"))
	if res.Verdict != verdict.Fail {
		t.Errorf("prefix mode: %s, want Fail", res.Verdict)
	}
	opts := DefaultOptions()
	opts.Mode = verdict.Slice
	res = New(st, st.MustParseTerm(jotI0), opts).Check(mtOf(t, st.Signature(), "[l1,l2] l2?m4; [l3] l3?m1"))
	if res.Verdict != verdict.WeakPass {
		t.Fatalf("slice mode: %s (%s)", res.Verdict, res.Text())
	}
	var got []string
	for _, s := range res.Simulated {
		got = append(got, s.Action+"@"+s.Component+"/"+s.When)
	}
	want := []string{"l1!m1@l1,l2/before", "l2?m1@l1,l2/before"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("simulated %v, want %v", got, want)
	}
}
