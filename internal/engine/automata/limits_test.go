package automata

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/nfa"
	"github.com/ivc-project/ivc/internal/random"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/verdict"
)

// chain returns seq(l1 -- m1 -> l2, seq(..., l1 -- m1 -> l2)), n messages,
// in operator form: an acyclic NFA of (n+1)(n+2)/2 states.
func chain(n int) string {
	return strings.Repeat("seq(strict(l1!m1,l2?m1),", n-1) + "strict(l1!m1,l2?m1)" + strings.Repeat(")", n-1)
}

// TestBuildLimits checks the bounds of the constructions: the build timeout
// stops New with a *nfa.LimitError; a checker past the memory budget
// answers Inconc with the reason, and Prepare returns the error.
func TestBuildLimits(t *testing.T) {
	sig := random.Signature(2, 1)
	st := interaction.NewStore(sig)
	term := st.MustParseTerm(chain(60))
	_, err := New(st, term, Options{Mode: verdict.Prefix, BuildTimeout: time.Nanosecond, Timeout: time.Minute})
	var le *nfa.LimitError
	if !errors.As(err, &le) || le.Limit != nfa.LimitTime {
		t.Errorf("BuildTimeout 1ns: error %v, want a deadline LimitError", err)
	}
	// The synthesis fits in 1 MiB, the checker's tables do not.
	e, err := New(st, term, Options{Mode: verdict.Prefix, MaxMemory: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	mt, err := multitrace.ParseResolve("test.htf", []byte("{ [l1] l1!m1; [l2] }"), sig)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Prepare(mt); !errors.As(err, &le) || le.Limit != nfa.LimitMemory {
		t.Errorf("Prepare: error %v, want a memory LimitError", err)
	}
	res := e.Check(mt)
	if res.Verdict != verdict.Inconc || !strings.Contains(res.Detail, "raise --max-memory") {
		t.Errorf("Check: %s %q, want Inconc for the memory budget", res.Verdict, res.Detail)
	}
	e, err = New(st, term, Options{Mode: verdict.Prefix, MaxMemory: 64 << 20, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if res := e.Check(mt); res.Verdict != verdict.WeakPass {
		t.Errorf("within the limits: %s %s, want WeakPass", res.Verdict, res.Text())
	}
}
