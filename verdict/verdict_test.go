package verdict_test

import (
	"testing"

	"github.com/ivc-project/ivc/nfa/engine"
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
