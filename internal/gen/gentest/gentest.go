// Package gentest draws the multi-traces that the benchmarks of several
// packages read (package gen's own, logs', check's): one copy of their
// loading and drawing.
package gentest

import (
	"testing"

	"github.com/ivc-project/ivc/internal/gen"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/spec"
)

// Accepted loads the interaction of the files hsf and hif and draws n of
// its accepted multi-traces (seed 1), as pointers into one array, with the
// number of their events in all.
func Accepted(tb testing.TB, hsf, hif string, n int) (*spec.Spec, []*multitrace.MultiTrace, int) {
	tb.Helper()
	sp, err := spec.Load(hsf, hif)
	if err != nil {
		tb.Fatal(err)
	}
	drawn, err := gen.Generate(sp.Store, sp.Root, gen.Config{Kind: gen.KindAccepted, N: n, Seed: 1})
	if err != nil {
		tb.Fatal(err)
	}
	mts := make([]*multitrace.MultiTrace, len(drawn))
	events := 0
	for i := range drawn {
		mts[i] = &drawn[i]
		events += drawn[i].Len()
	}
	return sp, mts, events
}
