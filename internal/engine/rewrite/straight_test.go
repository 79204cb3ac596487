package rewrite

import (
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/gen"
	"github.com/ivc-project/ivc/internal/random"
	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/verdict"
)

// TestStraight: the optimistic attempt and the multi-prefix search along
// their straight paths (straight) give every result the searches give
// without them — verdict, reason, explanation, and the vertices counted
// (Nodes, LocalNodes) — on the interactions of testdata (the slice paper's
// i0, whose par loops make paths branch; lfrem's i1 and i14; ABP) and on
// small random interactions (coregions, every loop, sync; 400 under -tags
// sweep), for multi-traces of every kind package gen makes, each lifeline a
// location or two lifelines in one (whose removal keeps ghosts), in prefix,
// accept and slice modes, with partial order reduction and local analyses on and
// off, and node budgets small enough to stop the attempt and the searches
// midway. Both analyzers judge the same multi-traces in the same order, so
// that their memos (straight's steps among them) hold what a log's checks
// leave behind.
func TestStraight(t *testing.T) {
	t.Parallel()
	// Each subject twice, in two stores: the analyzers' stores number their
	// terms as their searches make them, and a par's operands are ordered
	// by their numbers, so that a store shared would hide a search that
	// makes its terms in another order.
	type subject struct {
		name         string
		st, st2, st3 *interaction.Store // the third for the multi-traces drawn
		root, r2, r3 interaction.Term
	}
	var subjects []subject
	for _, f := range []struct{ hsf, hif string }{
		{"slice/i0.hsf", "slice/i0.hif"},
		{"lfrem/signature.hsf", "lfrem/i1.hif"},
		{"lfrem/signature.hsf", "lfrem/i14.hif"},
		{"abp/abp.hsf", "abp/abp.hif"},
	} {
		dir := filepath.Join("..", "..", "..", "testdata")
		sp, err := spec.Load(filepath.Join(dir, f.hsf), filepath.Join(dir, f.hif))
		if err != nil {
			t.Fatal(err)
		}
		sp2, err := spec.Load(filepath.Join(dir, f.hsf), filepath.Join(dir, f.hif))
		if err != nil {
			t.Fatal(err)
		}
		sp3, err := spec.Load(filepath.Join(dir, f.hsf), filepath.Join(dir, f.hif))
		if err != nil {
			t.Fatal(err)
		}
		subjects = append(subjects, subject{f.hif, sp.Store, sp2.Store, sp3.Store, sp.Root, sp2.Root, sp3.Root})
	}
	seeds := 60
	if testutil.Sweep() {
		seeds = 400
	}
	sig := random.Signature(3, 2)
	weights := random.Conservative()
	weights.Coreg, weights.LoopH, weights.Sync = 1, 1, 1
	for seed := range seeds {
		draw := func() (*interaction.Store, interaction.Term) {
			st := interaction.NewStore(sig)
			return st, random.Interaction(st, random.New(uint64(seed)), random.Params{MaxDepth: 3, MinActions: 3, Weights: weights, Messages: random.DefaultMessages()})
		}
		st, term := draw()
		st2, term2 := draw()
		st3, term3 := draw()
		subjects = append(subjects, subject{fmt.Sprintf("random seed %d", seed), st, st2, st3, term, term2, term3})
	}
	kinds := []gen.Kind{gen.KindAccepted, gen.KindPrefix, gen.KindSlice, gen.KindNoise, gen.KindSwapAct, gen.KindSwapComp}
	compared := 0
	for si, s := range subjects {
		var mts []multitrace.MultiTrace
		n := 40
		if si < 4 {
			n = 150
		}
		// Each lifeline its location, and (on three lifelines) two lifelines
		// in one location, whose removal keeps ghosts.
		partitions := []interaction.Locations{nil}
		if sig := s.st3.Signature(); sig.NumLifelines() == 3 {
			part, err := interaction.ParseLocations(sig, sig.Lifelines[0]+","+sig.Lifelines[1]+";"+sig.Lifelines[2])
			if err != nil {
				t.Fatal(err)
			}
			partitions = append(partitions, part)
		}
		for pi, part := range partitions {
			for k, kind := range kinds {
				drawn, err := gen.Generate(s.st3, s.r3, gen.Config{Kind: kind, N: n, Seed: uint64(si*100 + pi*10 + k), Locations: part, Options: gen.Options{MaxLength: 30}})
				if err != nil {
					continue // an interaction with no multi-trace of the kind
				}
				mts = append(mts, drawn...)
			}
		}
		for _, o := range []Options{
			DefaultOptions(),
			{Mode: verdict.Prefix, POR: false, LOC: true},
			{Mode: verdict.Prefix, POR: true, LOC: true, MaxNodes: 12},
			{Mode: verdict.Prefix, POR: false, LOC: true, MaxNodes: 40},
			{Mode: verdict.Prefix, POR: true, LOC: false},
			{Mode: verdict.Accept, POR: true, LOC: true},
			{Mode: verdict.Accept, POR: false, LOC: true, MaxNodes: 40},
			{Mode: verdict.Slice, POR: true, LOC: true, Simulation: DefaultSimulation(), MaxNodes: 5000},
		} {
			// Bounded: without local analyses, or in slice mode, the
			// searches of a few random interactions grow large.
			if o.MaxNodes == 0 {
				o.MaxNodes = 20_000
			}
			o.MaxMemory = 64 << 20
			with, without := New(s.st, s.root, o), New(s.st2, s.r2, o)
			without.noStraight = true
			for i := range mts {
				got, want := with.Check(&mts[i]), without.Check(&mts[i])
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s, %+v, %v:\nwith straight    %s (%d nodes, %d local) %+v\nwithout straight %s (%d nodes, %d local) %+v",
						s.name, o, mts[i], got.Text(), got.Nodes, got.LocalNodes, got, want.Text(), want.Nodes, want.LocalNodes, want)
				}
				compared++
			}
		}
	}
	t.Logf("%d checks compared", compared)
}

// TestStraightLfrem: straight changes no result on the lifeline-removal
// corpus (its 10,000 multi-traces, prefix mode, one analyzer pair per
// interaction judging its multi-traces in order).
func TestStraightLfrem(t *testing.T) {
	t.Parallel()
	cases := loadLfrem(t, nil)
	type pair struct{ with, without *Analyzer }
	analyzers := map[string]pair{}
	for _, c := range cases {
		p, ok := analyzers[c.row.HIF]
		if !ok {
			p = pair{New(c.sp.Store, c.sp.Root, DefaultOptions()), New(c.sp.Store, c.sp.Root, DefaultOptions())}
			p.without.noStraight = true
			analyzers[c.row.HIF] = p
		}
		if got, want := p.with.Check(c.mt), p.without.Check(c.mt); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: with straight %s (%d nodes, %d local), without %s (%d nodes, %d local)",
				c.row.HTF, got.Text(), got.Nodes, got.LocalNodes, want.Text(), want.Nodes, want.LocalNodes)
		}
	}
}
