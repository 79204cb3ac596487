package nfa

import (
	"errors"
	"math/rand/v2"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ivc-project/ivc/internal/nfa/engine"
	"github.com/ivc-project/ivc/internal/testutil"
)

// chainNFA is the NFA of a chain of n messages from a to b,
// seq(a -- m -> b, seq(a -- m -> b, ...)), at locations a and b: state
// (i, j) has sent i messages and received j ≤ i of them. It is acyclic and
// has (n+1)(n+2)/2 states: the shape whose projections took quadratic
// memory (one NFA-sized bitset per state).
func chainNFA(n int) (*NFA, *Alphabets) {
	b := NewBuilder()
	send, recv := b.Symbol("a!m"), b.Symbol("b?m")
	at := func(i, j int) State { return State(i*(i+1)/2 + j) }
	for i := 0; i <= n; i++ {
		for j := 0; j <= i; j++ {
			b.State(i == n && j == n)
		}
	}
	b.Initial(0)
	for i := 0; i <= n; i++ {
		for j := 0; j <= i; j++ {
			if i < n {
				b.Transition(at(i, j), send, at(i+1, j))
			}
			if j < i {
				b.Transition(at(i, j), recv, at(i, j+1))
			}
		}
	}
	a := b.Build()
	locs, err := ParseAlphabets(a.Symbols(), "a=a!m;b=b?m")
	if err != nil {
		panic(err)
	}
	return a, locs
}

// reachFuture is Future(q) by definition: the transitions leaving the
// states reachable from the states of the DFA state.
func reachFuture(a *NFA, sub Bits) Bits {
	seen := newStateSet(a.n)
	for _, q := range sub.Elems() {
		seen.add(State(q))
	}
	f := make(Bits, nwords(len(a.trans)))
	for i := 0; i < len(seen.list); i++ {
		q := seen.list[i]
		for t := a.out[q]; t < a.out[q+1]; t++ {
			f.set(int(t))
			seen.add(a.trans[t].Dst)
		}
	}
	return f
}

// TestFuturesAreReach checks the futures, computed on the projection DFA,
// against their definition on the NFA.
func TestFuturesAreReach(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 19))
	type tc struct {
		a    *NFA
		locs *Alphabets
	}
	var cases []tc
	for k := range 200 {
		a := randomNFA(rng, 2+rng.IntN(12), rng.IntN(40))
		cases = append(cases, tc{a, RandomAlphabets(a.Symbols(), 1+rng.IntN(3), uint64(k))})
	}
	a, locs := chainNFA(20)
	cases = append(cases, tc{a, locs})
	a, locs = paperNFA(t)
	cases = append(cases, tc{a, locs})
	for k, c := range cases {
		ch, err := NewChecker(c.a, c.locs, CheckerOptions{})
		if err != nil {
			t.Fatalf("case %d: %v", k, err)
		}
		a := ch.NFA()
		for i := range c.locs.Num() {
			p := ch.Proj(i)
			for q := range State(p.DFA().NumStates()) {
				if got, want := p.Future(q), reachFuture(a, p.Subset(q)); !slices.Equal(got, want) {
					t.Fatalf("case %d (%v), %s, state %v: future %v, want %v", k, a, c.locs.Name(i), p.Subset(q), got, want)
				}
			}
		}
	}
}

// liveBytes returns the bytes f keeps alive (what it returns), measured
// after garbage collections, and the bytes it allocated in all.
func liveBytes(f func() any) (live, total int64, v any) {
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	v = f()
	runtime.GC()
	runtime.ReadMemStats(&m1)
	return int64(m1.HeapAlloc) - int64(m0.HeapAlloc), int64(m1.TotalAlloc - m0.TotalAlloc), v
}

// TestProjectionMemory checks that the checker of a chain of 300 messages
// (45,451 states) takes a few dozen megabytes, not one bitset of its states
// per state (258 MB), and that the budget counts what the checker keeps: within
// a factor of 4 of the heap it really keeps, either way.
func TestProjectionMemory(t *testing.T) {
	// At n = 150 (300 in the sweep), the checker keeps 6 MB (36 MB) and
	// allocates 12 MB (96 MB); one NFA-sized bitset per projection state
	// alone would take n⁴/32 bytes, 16 MB (253 MB).
	n, maxLive, maxTotal := 150, int64(12<<20), int64(32<<20)
	if testutil.Sweep() {
		n, maxLive, maxTotal = 300, 48<<20, 128<<20
	}
	a, locs := chainNFA(n)
	live, total, v := liveBytes(func() any {
		c, err := NewChecker(a, locs, CheckerOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return c
	})
	c := v.(*Checker)
	states := 0
	for i := range locs.Num() {
		states += c.Proj(i).DFA().NumStates()
	}
	t.Logf("%d NFA states, %d projection states: %d bytes live (%d allocated), %d bytes per projection state",
		a.NumStates(), states, live, total, live/int64(states))
	if live > maxLive || total > maxTotal {
		t.Errorf("the checker keeps %d bytes and allocated %d, want less than %d and %d", live, total, maxLive, maxTotal)
	}
	if _, err := NewChecker(a, locs, CheckerOptions{MaxMemory: live / 4}); !isLimit(err, LimitMemory) {
		t.Errorf("MaxMemory %d (a quarter of what the checker keeps): error %v, want a memory LimitError", live/4, err)
	}
	if _, err := NewChecker(a, locs, CheckerOptions{MaxMemory: 4 * live}); err != nil {
		t.Errorf("MaxMemory %d (4 times what the checker keeps): %v", 4*live, err)
	}
}

func isLimit(err error, l Limit) bool {
	var le *LimitError
	return errors.As(err, &le) && le.Limit == l
}

// TestCheckerLimits checks the errors of the bounds of NewChecker: typed,
// naming the stage, the limit and the flag that raises it.
func TestCheckerLimits(t *testing.T) {
	a, locs := chainNFA(60)
	for _, tc := range []struct {
		name  string
		opt   CheckerOptions
		limit Limit
		msg   string
	}{
		{"deadline", CheckerOptions{Deadline: time.Now().Add(-time.Second)}, LimitTime,
			`^projection of location a stopped at its deadline, after .* \(raise --timeout, or use the runtime engine\)$`},
		{"memory", CheckerOptions{MaxMemory: 10_000}, LimitMemory,
			`^projection of location a stopped: it needs more than its memory budget of 9.77 KiB \(raise --max-memory, or use the runtime engine\)$`},
		{"states", CheckerOptions{MaxProjStates: 10}, LimitStates,
			`^projection of location a stopped: more than 10 states \(raise its state limit, or use the runtime engine\): too many states$`},
	} {
		_, err := NewChecker(a, locs, tc.opt)
		if !isLimit(err, tc.limit) {
			t.Errorf("%s: error %v, want a LimitError of limit %d", tc.name, err, tc.limit)
			continue
		}
		if ok, _ := regexp.MatchString(tc.msg, err.Error()); !ok {
			t.Errorf("%s: error %q, want %q", tc.name, err, tc.msg)
		}
		if tc.limit == LimitStates != errors.Is(err, ErrTooManyStates) {
			t.Errorf("%s: errors.Is(%v, ErrTooManyStates) = %v", tc.name, err, !(tc.limit == LimitStates))
		}
	}
}

// TestPruningDropped checks that a checker whose backward projections cost
// more than their work bound goes without them, with the same verdicts.
func TestPruningDropped(t *testing.T) {
	a, locs := chainNFA(12)
	pruned, err := NewChecker(a, locs, CheckerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if pruned.Tables().Projs[0].Back == nil {
		t.Fatal("the chain of 12 messages has no pruning")
	}
	// The same tables, unprepared, whose pruning may cost one state.
	src := pruned.Tables()
	tab := &engine.Tables{NumStates: src.NumStates, Initial: src.Initial, Final: src.Final, Trans: src.Trans, Parts: src.Parts}
	for _, p := range src.Projs {
		tab.Projs = append(tab.Projs, engine.Proj{Name: p.Name, K: p.K, DFA: p.DFA, AreaOf: p.AreaOf, Areas: p.Areas,
			Init: p.Init, FutureOf: p.FutureOf, Futures: p.Futures})
	}
	b := NewLimiter("test", time.Time{}, 0)
	if err := backward(pruned.NFA(), locs, tab, 0, b, 1); err != nil {
		t.Fatal(err)
	}
	for _, p := range tab.Projs {
		if p.Back != nil || p.BackAny != nil {
			t.Fatalf("%s keeps a backward projection past the work bound", p.Name)
		}
	}
	if b.Used() != 0 {
		t.Errorf("the dropped projections still count %d bytes", b.Used())
	}
	bare, err := engine.NewChecker(tab, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, mt := range []string{"aaa,bb", "aaaaaaaaaaaa,bbbbbbbbbbbb", ",b", "aa,bbb", "aaaaaaaaaaaaa,"} {
		parts := strings.Split(mt, ",")
		letters := [][]Letter{make([]Letter, len(parts[0])), make([]Letter, len(parts[1]))}
		for _, mode := range []Mode{Accept, Prefix} {
			want, got := pruned.CheckAS(letters, mode), bare.Check(letters, mode)
			if got.Verdict != want.Verdict || got.Reason != want.Reason {
				t.Errorf("%q in mode %v: %v %v without pruning, %v %v with it", mt, mode, got.Verdict, got.Reason, want.Verdict, want.Reason)
			}
		}
	}
}
