package verdict_test

import (
	"strings"
	"testing"

	"github.com/ivc-project/ivc/internal/nfa/engine"
	"github.com/ivc-project/ivc/verdict"
)

// TestEngineNames checks that the automata engine, which generated
// verifiers copy and which may import nothing of ivc, names its modes,
// verdicts and reasons as this package does.
func TestEngineNames(t *testing.T) {
	for _, m := range []engine.Mode{engine.Accept, engine.Prefix} {
		if vm, err := verdict.ParseMode(m.String()); err != nil || vm.String() != m.String() {
			t.Errorf("engine mode %s: verdict has %s (%v)", m, vm, err)
		}
		if v := verdict.Mode(m); v.String() != m.String() {
			t.Errorf("engine mode %d is %s, verdict's %s: number them alike", m, m, v)
		}
	}
	verdicts := map[engine.Verdict]verdict.Verdict{engine.Pass: verdict.Pass, engine.WeakPass: verdict.WeakPass,
		engine.Fail: verdict.Fail, engine.Inconc: verdict.Inconc}
	for e, v := range verdicts {
		if e.String() != v.String() || e.OK() != v.OK() {
			t.Errorf("engine verdict %s (OK %v), verdict %s (OK %v)", e, e.OK(), v, v.OK())
		}
	}
	for r := engine.NoReason; r <= engine.Timeout; r++ {
		if v := verdict.Reason(r); v.String() != r.String() {
			t.Errorf("engine reason %d is %q, verdict's %q", r, r, v)
		}
	}
	if s := (engine.Timeout + 1).String(); s != "Reason(7)" {
		t.Errorf("the engine has a reason %s that verdict may not have: extend this test", s)
	}
}

func TestText(t *testing.T) {
	for _, tc := range []struct {
		r    verdict.Result
		want string
	}{
		{verdict.Result{}, ""},
		{verdict.Result{Reason: verdict.InterError}, "InterError"},
		{verdict.Result{Reason: verdict.LocalError, Detail: "[a] cannot read event 1 (a!m)"}, "LocalError: [a] cannot read event 1 (a!m)"},
		{verdict.Result{Reason: verdict.NodeLimit, Detail: "node limit reached (5 vertices)"}, "node limit reached (5 vertices)"},
		{verdict.Result{Detail: "no explanation"}, "no explanation"},
		{verdict.Result{Reason: verdict.Memory, Detail: "memory limit reached (1 GiB of search data; --max-memory raises it)"},
			"memory limit reached (1 GiB of search data; --max-memory raises it)"},
	} {
		if got := tc.r.Text(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.r, got, tc.want)
		}
	}
	if m, err := verdict.ParseMode("slice"); err != nil || m != verdict.Slice {
		t.Errorf("ParseMode(slice) = %v, %v", m, err)
	}
	if _, err := verdict.ParseMode("exact"); err == nil {
		t.Error("ParseMode(exact) succeeded")
	}
}

// TestWords: the lines, heading and diagnosis every output takes from a
// result.
func TestWords(t *testing.T) {
	fail := verdict.Result{Verdict: verdict.Fail, Explanation: &verdict.Explanation{
		Components:   []verdict.ComponentProgress{{Lifelines: "a", Consumed: 1, Length: 2, Head: "a!m"}, {Lifelines: "b", Consumed: 0, Length: 0}},
		LocalFailure: "a"}}
	got := strings.Join(fail.Explain(), "|")
	want := "local failure: the trace of [a] is impossible on its own|[a] consumed 1/2, next a!m|[b] consumed 0/0|expected: nothing more"
	if got != want {
		t.Errorf("Explain:\n got %s\nwant %s", got, want)
	}
	if k, why := fail.Diagnosis(); k != "local failure" || why != "local failure: the trace of [a] is impossible on its own; expected nothing more" {
		t.Errorf("Diagnosis: %q %q", k, why)
	}
	slice := verdict.Result{Verdict: verdict.WeakPass, Mode: verdict.Slice, Simulated: []verdict.SimulatedAction{
		{Action: "a!m", Component: "a"}, {Action: "b?m", Component: "b"}, {Action: "a!n", Component: "a"}}}
	if got := strings.Join(slice.Explain(), "|"); got != "before the log of [a] starts: a!m a!n|before the log of [b] starts: b?m" {
		t.Errorf("Explain slice: %s", got)
	}
	if got := slice.Heading(); got != "WeakPass (a slice: the logs may start late and stop early)" {
		t.Errorf("Heading: %s", got)
	}
	// The cost counts the local analyses' vertices, which an optimistic
	// attempt that decides alone is made of (it said "0 nodes").
	for _, tc := range []struct {
		r    verdict.Result
		want string
	}{
		{verdict.Result{Nodes: 252}, "252 nodes"},
		{verdict.Result{LocalNodes: 13}, "13 nodes, 13 of local analyses"},
		{verdict.Result{Nodes: 7, LocalNodes: 15}, "22 nodes, 15 of local analyses"},
		{verdict.Result{}, "0 nodes"},
	} {
		if got := tc.r.Cost(); got != tc.want || tc.r.TotalNodes() != tc.r.Nodes+tc.r.LocalNodes {
			t.Errorf("%+v: Cost %q, want %q", tc.r, got, tc.want)
		}
	}
	inter := verdict.Result{Verdict: verdict.Fail, Reason: verdict.InterError}
	if k, why := inter.Diagnosis(); k != "InterError" || why != "InterError" || inter.Heading() != "Fail: InterError" {
		t.Errorf("InterError: %q %q %q", k, why, inter.Heading())
	}
}
