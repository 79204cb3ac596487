package automata

import (
	"testing"

	"github.com/ivc-project/ivc/internal/nfa"
	"github.com/ivc-project/ivc/verdict"
)

// TestVerdictMapping: the engine's modes, verdicts and reasons map to
// verdict's of the same name, every one of them.
func TestVerdictMapping(t *testing.T) {
	for _, m := range []verdict.Mode{verdict.Prefix, verdict.Accept} {
		if got := modeOf(m); got.String() != m.String() {
			t.Errorf("mode %s maps to the engine's %s", m, got)
		}
	}
	for v := nfa.Pass; v <= nfa.Inconc; v++ {
		if got := verdictOf[v]; got.String() != v.String() {
			t.Errorf("verdict %s maps to %s", v, got)
		}
	}
	if len(verdictOf) != int(nfa.Inconc)+1 {
		t.Errorf("%d verdicts mapped: extend this test", len(verdictOf))
	}
	for r := nfa.NoReason; r <= nfa.Timeout; r++ {
		if got := reasonOf[r]; got.String() != r.String() {
			t.Errorf("reason %q maps to %q", r, got)
		}
	}
	if len(reasonOf) != int(nfa.Timeout)+1 {
		t.Errorf("%d reasons mapped: extend this test", len(reasonOf))
	}
}
