package check

import (
	"errors"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/repair"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/verdict"
)

// TestWrongRepair gives the front door a repair that does not repair: it
// is never returned, an error says so; a repair whose check is undecided
// is not returned either.
func TestWrongRepair(t *testing.T) {
	sp, err := spec.Parse("s.hsf", []byte("@lifeline{ l1; l2 }\n@message{ m }\n"), "s.hif", []byte("l1 -- m -> l2"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(sp, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	mt, err := multitrace.ParseResolve("mt.htf", []byte("{[l1] l1!m.l1!m; [l2] }"), sp.Sig)
	if err != nil {
		t.Fatal(err)
	}
	m := interaction.NewMultiAction(mt.Components[0].Trace[0]...)
	wrong := repair.Result{Found: true, Edits: []repair.Edit{{Op: verdict.Insert, Component: 0, Index: 0, Event: m}}}
	if r, err := c.verified(mt, wrong, c.Check); !errors.Is(err, ErrWrongRepair) || r.Cost() != 0 {
		t.Errorf("a wrong repair: %+v, %v", r, err)
	}
	undecided := func(*multitrace.MultiTrace) verdict.Result {
		return verdict.Result{Verdict: verdict.Inconc, Reason: verdict.Timeout}
	}
	right := repair.Result{Found: true, Edits: []repair.Edit{{Op: verdict.Delete, Component: 0, Index: 1, Event: m}}}
	if r, err := c.verified(mt, right, undecided); err != nil || r.Cost() != 0 || !r.Incomplete || r.Reason != verdict.Timeout {
		t.Errorf("an undecided repair: %+v, %v", r, err)
	}
	if r, err := c.verified(mt, right, c.Check); err != nil || r.Cost() != 1 || r.Incomplete {
		t.Errorf("a repair: %+v, %v", r, err)
	}
}
