package reference

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/random"
)

// sweep sets the number of random terms of TestOperationalAgreement, for
// longer runs: go test ./internal/reference -run Operational -sweep 20000
var sweep = flag.Int("sweep", 0, "number of random terms for the operational cross-check (0: default)")

// operational enumerates the traces of a term by exploring every path of
// the operational semantics (Frontier/Step) up to a length: the set of
// a1…an such that t –a1→ … –an→ t′ with t′↓.
type operational struct {
	st   *interaction.Store
	memo map[opKey]map[string]Trace
}

type opKey struct {
	t interaction.Term
	k int
}

func (o *operational) traces(t interaction.Term, k int) map[string]Trace {
	key := opKey{t, k}
	if r, ok := o.memo[key]; ok {
		return r
	}
	out := map[string]Trace{}
	if o.st.Nullable(t) {
		out[""] = Trace{}
	}
	if k > 0 {
		for j := range o.st.NumFrontier(t) {
			a := o.st.MultiAction(o.st.FrontierAct(t, j))
			for _, rest := range o.traces(o.st.Step(t, j), k-1) {
				tr := append(Trace{a}, rest...)
				out[traceKey(tr)] = tr
			}
		}
	}
	o.memo[key] = out
	return out
}

// disagreement is a trace that only one semantics accepts.
type disagreement struct {
	term, trace string
	operational bool // true: only the operational semantics accepts it
}

func (d disagreement) String() string {
	side := "the reference accepts it, the operational semantics does not"
	if d.operational {
		side = "the operational semantics accepts it, the reference does not"
	}
	return fmt.Sprintf("%s\n\ttrace %s: %s", d.term, d.trace, side)
}

// compare returns the traces of length ≤ k on which the two semantics differ.
func compare(st *interaction.Store, t interaction.Term, k int) []disagreement {
	ref := Traces(st, t, k)
	op := (&operational{st: st, memo: map[opKey]map[string]Trace{}}).traces(t, k)
	var out []disagreement
	for key, tr := range op {
		if _, ok := ref.byKey[key]; !ok {
			out = append(out, disagreement{st.Format(t), tr.Format(st.Signature()), true})
		}
	}
	for key, tr := range ref.byKey {
		if _, ok := op[key]; !ok {
			out = append(out, disagreement{st.Format(t), tr.Format(st.Signature()), false})
		}
	}
	slices.SortFunc(out, func(a, b disagreement) int {
		if c := len(a.trace) - len(b.trace); c != 0 {
			return c
		}
		return strings.Compare(a.trace, b.trace)
	})
	return out
}

// sweepTerms returns the number of random terms to check.
func sweepTerms(def int) int {
	switch {
	case *sweep > 0:
		return *sweep
	case testing.Short():
		return def / 4
	}
	return def
}

// agree checks n random terms drawn with weights w and reports the terms on
// which the two semantics differ.
func agree(t *testing.T, seed uint64, n int, w random.Weights) {
	const maxActions, maxLen = 8, 6
	st := interaction.NewStore(random.Signature(3, 2))
	rng := random.New(seed)
	p := random.Params{MaxDepth: 4, Weights: w,
		Messages: random.MessageKinds{Passing: 4, Emission: 1, Reception: 1, Synch: 1, Broadcast: 1}}
	failures := 0
	for done := 0; done < n; {
		p.KeepEmpty = rng.IntN(4) == 0
		term := random.Interaction(st, rng, p)
		if st.NumActions(term) > maxActions {
			continue
		}
		done++
		if ds := compare(st, term, maxLen); len(ds) > 0 {
			failures++
			if failures <= 10 {
				t.Errorf("%d disagreements, first: %s", len(ds), ds[0])
			}
		}
	}
	if failures > 0 {
		t.Errorf("%d of %d terms disagree", failures, n)
	}
}

// TestOperationalAgreement is the first differential test of the project:
// for random small terms (every operator but sync, with <synch> messages and
// broadcasts, ∅ operands kept in a quarter of them), the traces found by
// exploring the operational semantics and the denotational reference must
// be the same sets.
func TestOperationalAgreement(t *testing.T) {
	w := random.All()
	w.Sync = 0
	agree(t, 2024, sweepTerms(400), w)
}

// syncEmptyBug is the smallest disagreement found on sync, now fixed: the
// ∅-simplification sync(A)(i,∅) → i (Store.Simplify, and Step and Prune
// through it) dropped the synchronization constraint. After l2!m1, the
// residual sync(l1!m1)(l1!m1,∅) has no trace (l1!m1 has no partner), but the
// simplified l1!m1 ran, so the operational semantics accepted l2!m1.l1!m1.
const syncEmptyBug = "sync(l1!m1)(l1!m1,l2!m1)"

// TestOperationalAgreementSync is TestOperationalAgreement with sync. It
// first checks syncEmptyBug, so that the regression is named if it comes
// back.
func TestOperationalAgreementSync(t *testing.T) {
	st := newStore(t, "l1,l2,l3", "m1,m2")
	if ds := compare(st, st.MustParseTerm(syncEmptyBug), 4); len(ds) > 0 {
		t.Fatalf("the sync-∅ bug is back: a sync operand beside ∅ must keep its synchronization (interaction's mkNode); on %s", ds[0])
	}
	w := random.All()
	w.Sync = 4
	agree(t, 2025, sweepTerms(400), w)
}

// TestOperationalAgreementCases pins the agreement on hand-picked terms
// that exercise the trickier rules (pruning under seq, coreg and loopW,
// loopH, nested loops).
func TestOperationalAgreementCases(t *testing.T) {
	tests := []struct{ lifelines, messages, term string }{
		{"l1,l2,l3", "m1,m2", "loopW(alt(strict(l1!m1,l2?m1),l2?m2))"},
		{"l1,l2,l3", "m1,m2", "loopH(alt(strict(l1!m1,l2?m1),l2?m2))"},
		{"l1,l2,l3", "m1,m2", "seq(loopW(strict(l1!m1,l2?m1)),strict(l1!m2,l2?m2))"},
		{"l1,l2,l3", "m1,m2", "coreg(l2)(loopW(strict(l1!m1,l2?m1)),loopW(strict(l1!m2,l2?m2)))"},
		{"l1,l2,l3", "m1,m2", "seq(alt(l1!m1,strict(l2!m1,l3?m1)),l3!m2)"},
		{"l1,l2,l3", "m1,m2", "seq(par(alt(l1!m1,l2!m2),l3!m1),alt(l1!m2,l2!m1))"},
		{"l1,l2,l3", "m1,m2", "loopP(seq(l1!m1,l1?m2))"},
		{"l1,l2,l3", "m1,m2", "loopW(coreg(l1)(l1!m1,strict(l2!m2,l1?m2)))"},
		{"l1,l2,l3", "m1,m2", "loopW(seq(loopH(strict(l1!m1,l2?m1)),{l2!m2,l3?m2}))"},
		{"l1,l2,l3", "m1,m2", "seq(loopP(strict(l1!m1,l2?m1)),loopS(alt(l2?m2,∅)))"},
		{"l1,l2,l3", "m1,m2,m3,m4,m5", jotI0},
		{"lp,lb,ls", "pub,sub", iFig1},
	}
	for _, tc := range tests {
		st := newStore(t, tc.lifelines, tc.messages)
		var sb strings.Builder
		for _, d := range compare(st, st.MustParseTerm(tc.term), 6) {
			fmt.Fprintln(&sb, d)
		}
		if sb.Len() > 0 {
			t.Errorf("%s", sb.String())
		}
	}
}
