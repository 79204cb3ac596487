package check

import (
	"errors"
	"testing"

	"github.com/ivc-project/ivc/internal/nfa"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/verdict"
)

// TestSettingErrors: every bad setting, and every pair that does not go
// together, is a *SettingError with its code, whatever the driver.
func TestSettingErrors(t *testing.T) {
	in := &spec.Spec{SigPath: "s.hsf"}
	neg := -1
	for _, tc := range []struct {
		s    Settings
		sp   *spec.Spec // nil: a raw NFA (RawOptions)
		code ErrorCode
		text string
	}{
		{Settings{Mode: "exact"}, in, ErrInvalidSetting, `invalid mode "exact": want accept, prefix or slice`},
		{Settings{Budget: "huge"}, in, ErrInvalidSetting, `invalid budget "huge": want liberal or paper`},
		{Settings{Engine: "diesel"}, in, ErrInvalidSetting, `invalid engine "diesel": want auto, runtime or automata`},
		{Settings{Strategy: "gfs"}, in, ErrInvalidSetting, `invalid strategy "gfs": want dfs or bfs`},
		{Settings{MaxNodes: &neg}, in, ErrInvalidSetting, `invalid max-nodes -1: want a positive number, or 0 for the default`},
		{Settings{Timeout: -1}, in, ErrInvalidSetting, `invalid timeout -1ns: want a positive duration, or 0 for none`},
		{Settings{Jobs: -2}, in, ErrInvalidSetting, `invalid jobs -2: want at least 1`},
		{Settings{MaxMemory: -1}, in, ErrInvalidSetting, `invalid max-memory -1: want a positive size, or 0 for the default`},
		{Settings{Engine: "automata", Mode: "slice"}, in, ErrUnanswered, `the automata engine answers accept and prefix modes, not slice`},
		{Settings{Engine: "automata", Explore: true}, in, ErrNotApplicable, `the explored graph is the runtime engine's search: use the runtime engine`},
		{Settings{Engine: "runtime"}, nil, ErrNotApplicable, `a .timbuk NFA has no interaction: only the automata engine (or auto) applies`},
		{Settings{Mode: "slice"}, nil, ErrUnanswered, `a .timbuk NFA is checked by the automata engine: the automata engine answers accept and prefix modes, not slice`},
		{Settings{OptionFiles: []string{"o.hcf"}}, nil, ErrNotApplicable, `option files apply to interactions, not to a .timbuk NFA`},
		{Settings{Mode: "exact"}, nil, ErrInvalidSetting, `invalid mode "exact": want accept, prefix or slice`},
		{Settings{Explore: true}, nil, ErrNotApplicable, `the explored graph is the runtime engine's search of an interaction, not of a .timbuk NFA`},
	} {
		if tc.s.Jobs == 0 {
			tc.s.Jobs = 1
		}
		var err error
		if tc.sp != nil {
			_, _, err = tc.s.Options(tc.sp)
		} else {
			_, err = tc.s.RawOptions()
		}
		var se *SettingError
		if !errors.As(err, &se) || se.Code != tc.code || err.Error() != tc.text {
			t.Errorf("%+v: %v (%T), want %s: %s", tc.s, err, err, tc.code, tc.text)
		}
	}
	// New checks options built by hand alike.
	opts := DefaultOptions()
	opts.Engine, opts.Mode = EngineAutomata, verdict.Slice
	var se *SettingError
	if _, err := New(in, opts); !errors.As(err, &se) || se.Code != ErrUnanswered {
		t.Errorf("New(automata, slice): %v", err)
	}
	opts.Engine, opts.Mode = EngineRuntime, verdict.Accept
	if _, err := NewRaw(&RawNFA{Path: "a.timbuk", NFA: &nfa.NFA{}}, opts); !errors.As(err, &se) || se.Code != ErrNotApplicable {
		t.Errorf("NewRaw(runtime): %v", err)
	}
	// Given settings; auto becomes runtime when the graph is explored.
	yes := true
	opts, _, err := (&Settings{Mode: "accept", Strategy: "bfs", POR: &yes, Jobs: 2, Explore: true}).Options(in)
	if err != nil || opts.Mode != verdict.Accept || opts.Engine != EngineRuntime || opts.MaxMemory < 256<<20 {
		t.Errorf("Options: %+v, %v", opts, err)
	}
}

// TestReadMemory: reading's budget is --max-memory, else one analysis's
// default, whatever the jobs.
func TestReadMemory(t *testing.T) {
	if got := (Settings{MaxMemory: 5 << 20, Jobs: 4}).ReadMemory(); got != 5<<20 {
		t.Errorf("ReadMemory = %d, want %d", got, 5<<20)
	}
	// The default follows the memory available, which moves: one
	// analysis's share, not the jobs' (at least the 256 MiB floor).
	got, jobs := (Settings{Jobs: 4}).ReadMemory(), DefaultMaxMemory(4)
	if got < 256<<20 || got < jobs {
		t.Errorf("ReadMemory = %d, want DefaultMaxMemory(1), at least 256 MiB and DefaultMaxMemory(4) = %d", got, jobs)
	}
}
