package synth

import (
	"errors"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/nfa"
	"github.com/ivc-project/ivc/internal/random"
)

// copiesOf returns par(x, par(x, ..., x)), n copies of the message x: abp's
// 400 copies of S -- d_zero -> K ran the synthesis for a minute. Its
// derivatives are the numbers of copies not started and sent, about n²/2,
// each a term of up to n operands whose frontier has as many elements, all
// executing the same action into the same term.
func copiesOf(x string, n int) string {
	return strings.Repeat("par("+x+",", n-1) + x + strings.Repeat(")", n-1)
}

func isLimit(err error, l nfa.Limit) bool {
	var le *nfa.LimitError
	return errors.As(err, &le) && le.Limit == l
}

// TestSynthesisLimits checks that the deadline and the memory budget stop
// a synthesis with a typed error naming the file, the limit and its flag.
func TestSynthesisLimits(t *testing.T) {
	st := interaction.NewStore(random.Signature(2, 1))
	root := st.MustParseTerm(copiesOf("strict(l1!m1,l2?m1)", 60))
	for _, tc := range []struct {
		name  string
		opt   Options
		limit nfa.Limit
		msg   string
	}{
		{"deadline", Options{File: "x.hif", Deadline: time.Now().Add(-time.Second)}, nfa.LimitTime,
			`^x.hif: NFA synthesis stopped at its deadline, after .* \(raise --timeout, or use the runtime engine\)$`},
		{"memory", Options{File: "x.hif", MaxMemory: 64 << 10}, nfa.LimitMemory,
			`^x.hif: NFA synthesis stopped: it needs more than its memory budget of 64 KiB \(raise --max-memory, or use the runtime engine\)$`},
	} {
		for _, f := range []func(*interaction.Store, interaction.Term, Options) error{
			func(st *interaction.Store, root interaction.Term, opt Options) error {
				_, err := Synthesize(st, root, opt)
				return err
			},
			func(st *interaction.Store, root interaction.Term, opt Options) error {
				_, err := compileNFA(st, root, opt)
				return err
			},
		} {
			err := f(st, root, tc.opt)
			if !isLimit(err, tc.limit) {
				t.Errorf("%s: error %v, want a LimitError of limit %d", tc.name, err, tc.limit)
				continue
			}
			if ok, _ := regexp.MatchString(tc.msg, err.Error()); !ok {
				t.Errorf("%s: error %q, want %q", tc.name, err, tc.msg)
			}
		}
	}
	// Within the limits, the synthesis is the same as without them.
	a, err := compileNFA(st, root, Options{Deadline: time.Now().Add(time.Minute), MaxMemory: 1 << 30})
	if err != nil || a.NumStates() != 61*62/2 {
		t.Errorf("got %v states, error %v; want %d states", a.NumStates(), err, 61*62/2)
	}
}

// TestSynthesisMemory checks that the budget counts what a synthesis
// keeps, within a factor of 4 either way: the automaton, and the terms,
// frontiers and caches it adds to the Store (most of it here); and that a
// state's duplicate transitions are dropped as they are found (the 150
// copies of the message gave 150 equal transitions per state).
func TestSynthesisMemory(t *testing.T) {
	src := copiesOf("strict(l1!m1,l2?m1)", 100)
	synth := func(opt Options) (int64, int64, *Automaton, error) {
		st := interaction.NewStore(random.Signature(2, 1))
		root := st.MustParseTerm(src)
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		a, err := Synthesize(st, root, opt)
		runtime.GC()
		runtime.ReadMemStats(&m1)
		runtime.KeepAlive(st)
		return int64(m1.HeapAlloc) - int64(m0.HeapAlloc), int64(m1.TotalAlloc - m0.TotalAlloc), a, err
	}
	live, total, a, err := synth(Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d states, %d transitions: %d bytes live, %d allocated", a.NFA.NumStates(), a.NFA.NumTransitions(), live, total)
	if total > live+live/2 {
		t.Errorf("the synthesis allocated %d bytes to keep %d", total, live)
	}
	if _, _, _, err := synth(Options{MaxMemory: live / 4}); !isLimit(err, nfa.LimitMemory) {
		t.Errorf("MaxMemory %d (a quarter of what the synthesis keeps): error %v, want a memory LimitError", live/4, err)
	}
	if _, _, _, err := synth(Options{MaxMemory: 4 * live}); err != nil {
		t.Errorf("MaxMemory %d (4 times what the synthesis keeps): %v", 4*live, err)
	}
}
