package interaction

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func newTestStore(t testing.TB, lifelines, messages string) *Store {
	t.Helper()
	sig, err := NewSignature(strings.Split(lifelines, ","), strings.Split(messages, ","), nil)
	if err != nil {
		t.Fatal(err)
	}
	st := NewStore(sig)
	// The papers' examples are written without canonical rewriting.
	st.SetCanonical(false)
	return st
}

// i0 is the running example of the slice paper (JOT Fig. 2).
const jotI0 = `seq(coreg(l2)(alt(strict(l1!m1,seq(l2?m1,l3?m1)),∅),
	loopW(alt(strict(l1!m2,l2?m2),strict(l2!m3,l3?m3)))),
	loopP(seq(strict(l3!m4,l2?m4),strict(l2!m5,l3?m5))))`

func frontierDump(st *Store, t Term) []string {
	var out []string
	for _, e := range st.Frontier(t) {
		out = append(out, st.MultiAction(e.Act).Format(st.Signature())+"@"+e.Pos)
	}
	slices.Sort(out)
	return out
}

func TestFrontierJOT(t *testing.T) {
	st := newTestStore(t, "l1,l2,l3", "m1,m2,m3,m4,m5")
	i0 := st.MustParseTerm(jotI0)
	got := frontierDump(st, i0)
	want := []string{"l1!m1@1111", "l1!m2@12111", "l2!m3@12121", "l3!m4@2111"}
	if !slices.Equal(got, want) {
		t.Errorf("frontier(i0) = %v, want %v", got, want)
	}
}

func TestExecuteJOT(t *testing.T) {
	st := newTestStore(t, "l1,l2,l3", "m1,m2,m3,m4,m5")
	i0 := st.MustParseTerm(jotI0)
	tests := []struct{ pos, want string }{
		// Fig. 4: executing l3!m4 prunes the coregion for l3 (Fig. 3) and
		// unfolds the loopP; ∅ operands are simplified away.
		{"2111", "seq(loopW(strict(l1!m2,l2?m2)),par(seq(l2?m4,strict(l2!m5,l3?m5)),loopP(seq(strict(l3!m4,l2?m4),strict(l2!m5,l3?m5)))))"},
		{"1111", "seq(coreg(l2)(seq(l2?m1,l3?m1),loopW(alt(strict(l1!m2,l2?m2),strict(l2!m3,l3?m3)))),loopP(seq(strict(l3!m4,l2?m4),strict(l2!m5,l3?m5))))"},
		// l2!m3 in the coregion on l2 does not prune the left operand; every
		// iteration of the loopW involves l2, so none is kept in front.
		{"12121", "seq(coreg(l2)(alt(strict(l1!m1,seq(l2?m1,l3?m1)),∅),seq(l3?m3,loopW(alt(strict(l1!m2,l2?m2),strict(l2!m3,l3?m3))))),loopP(seq(strict(l3!m4,l2?m4),strict(l2!m5,l3?m5))))"},
	}
	for _, tc := range tests {
		got, err := st.Execute(i0, tc.pos)
		if err != nil {
			t.Fatal(err)
		}
		if st.Format(got) != tc.want {
			t.Errorf("execute @%s:\n got %s\nwant %s", tc.pos, st.Format(got), tc.want)
		}
	}
	if _, err := st.Execute(i0, "2"); err == nil {
		t.Error("execute at a non-frontier position succeeded")
	}
}

func TestPrune(t *testing.T) {
	st := newTestStore(t, "l1,l2,l3", "m1,m2,m3,m4,m5")
	tests := []struct {
		term, lifelines, want string
	}{
		// JOT Fig. 3: the coregion of i0 pruned of l3.
		{"coreg(l2)(alt(strict(l1!m1,seq(l2?m1,l3?m1)),∅),loopW(alt(strict(l1!m2,l2?m2),strict(l2!m3,l3?m3))))", "l3",
			"loopW(strict(l1!m2,l2?m2))"},
		{"alt(l1!m1,l2!m2)", "l1", "l2!m2"},
		{"alt(l1!m1,l2!m2)", "l1,l2", "-"},
		{"loopS(strict(l1!m1,l2?m1))", "l2", "∅"},
		{"seq(loopS(l1!m1),l2!m2)", "l1", "l2!m2"},
		{"strict(l1!m1,l2?m1)", "l3", "strict(l1!m1,l2?m1)"},
		{"par(alt(l1!m1,∅),l2!m2)", "l1", "l2!m2"},
		{"par(alt(l1!m1,∅),l2!m2)", "l2", "-"},
	}
	for _, tc := range tests {
		var ls Lifelines
		for _, n := range strings.Split(tc.lifelines, ",") {
			l, _ := st.Signature().Lifeline(n)
			ls = ls.Add(l)
		}
		term := st.MustParseTerm(tc.term)
		got, ok := st.Prune(term, ls)
		dump := "-"
		if ok {
			dump = st.Format(got)
		}
		if dump != tc.want {
			t.Errorf("prune(%s, {%s}) = %s, want %s", tc.term, tc.lifelines, dump, tc.want)
		}
		if ok != st.Avoids(term, ls) {
			t.Errorf("Avoids(%s, {%s}) = %v, disagrees with Prune", tc.term, tc.lifelines, !ok)
		}
	}
}

func TestRemove(t *testing.T) {
	// FSEN pub/sub example: T13 of notes-partial-observation.md.
	st := newTestStore(t, "pub,bro,sub", "publish,subscribe")
	pubsub := st.MustParseTerm(`seq(loopS(seq(pub!publish,bro?publish)),
		seq(seq(sub!subscribe,bro?subscribe),
		loopS(seq(seq(pub!publish,bro?publish),seq(bro!publish,sub?publish)))))`)
	sub, _ := st.Signature().Lifeline("sub")
	pub, _ := st.Signature().Lifeline("pub")
	got := st.Format(st.Remove(pubsub, LifelinesOf(sub)))
	want := "seq(loopS(seq(pub!publish,bro?publish)),seq(bro?subscribe,loopS(seq(seq(pub!publish,bro?publish),bro!publish))))"
	if got != want {
		t.Errorf("rmv_sub:\n got %s\nwant %s", got, want)
	}
	// T10: removing lp and ls from i_fig1 leaves lb's local language.
	st2 := newTestStore(t, "lp,lb,ls", "pub,sub")
	fig1 := st2.MustParseTerm(`seq(seq(loopW(strict(lp!pub,lb?pub)),strict(ls!sub,lb?sub)),
		loopW(seq(strict(lp!pub,lb?pub),strict(lb!pub,ls?pub))))`)
	lp, _ := st2.Signature().Lifeline("lp")
	ls, _ := st2.Signature().Lifeline("ls")
	got = st2.Format(st2.Remove(fig1, LifelinesOf(lp, ls)))
	want = "seq(seq(loopW(lb?pub),lb?sub),loopW(seq(lb?pub,lb!pub)))"
	if got != want {
		t.Errorf("rmv_{lp,ls}(i_fig1):\n got %s\nwant %s", got, want)
	}
	// Prop. 1: removals commute and compose.
	a := st.Remove(st.Remove(pubsub, LifelinesOf(sub)), LifelinesOf(pub))
	b := st.Remove(st.Remove(pubsub, LifelinesOf(pub)), LifelinesOf(sub))
	c := st.Remove(pubsub, LifelinesOf(pub, sub))
	if a != b || b != c {
		t.Errorf("removal does not commute: %s / %s / %s", st.Format(a), st.Format(b), st.Format(c))
	}
}

func TestRemoveMultiActionsCoregSync(t *testing.T) {
	st := newTestStore(t, "a,b,c", "m,n")
	tests := []struct{ term, remove, want string }{
		{"{a!m,b?m,c?m}", "a", "{b?m,c?m}"},
		{"{a!m,b?m}", "a,b", "∅"},
		{"coreg(a)(a!m,b!n)", "a", "seq(∅,b!n)"},
		{"coreg(a,b)(a!m,c!n)", "a", "coreg(b)(∅,c!n)"},
		{"sync(a!m)(a!m,par(a!m,b!n))", "a", "par(∅,b!n)"},
		{"loopW(alt(a!m,strict(b!n,a?n)))", "a", "loopW(alt(∅,b!n))"},
	}
	for _, tc := range tests {
		var ls Lifelines
		for _, n := range strings.Split(tc.remove, ",") {
			l, _ := st.Signature().Lifeline(n)
			ls = ls.Add(l)
		}
		want := st.Format(st.Simplify(st.MustParseTerm(tc.want)))
		if got := st.Format(st.Remove(st.MustParseTerm(tc.term), ls)); got != want {
			t.Errorf("rmv_{%s}(%s) = %s, want %s", tc.remove, tc.term, got, want)
		}
	}
}

// countInProjection counts the frontier elements of the projection of t on
// the lifeline of a that execute a (Def. 11 of the lifeline-removal paper),
// and checks that Instances never counts fewer (it may count more: it is
// conservative about strict).
func countInProjection(st *Store, t Term, a string) int {
	act, err := st.Signature().ParseAction(a)
	if err != nil {
		panic(err)
	}
	others := st.Signature().AllLifelines().Minus(LifelinesOf(act.Lifeline()))
	proj := st.Remove(t, others)
	id := st.ActID(NewMultiAction(act))
	n := 0
	for k := 0; k < st.NumFrontier(proj); k++ {
		if st.FrontierAct(proj, k) == id {
			n++
		}
	}
	if got := st.Instances(t, act); got < min(n, 2) {
		panic(fmt.Sprintf("Instances(%s, %s) = %d, projection has %d", st.Format(t), a, got, n))
	}
	return n
}

func TestOneUnambiguity(t *testing.T) {
	st := newTestStore(t, "l1,l2", "m,x")
	tests := []struct {
		term, act string
		count     int
	}{
		{"par(l1!m,l1!m)", "l1!m", 2},
		{"seq(l1!m,l1!m)", "l1!m", 1},
		{"seq(strict(l2!x,l1!m),l1!m)", "l1!m", 1},
		{"alt(strict(l1!m,l2?m),strict(l1!m,l2?x))", "l1!m", 2},
	}
	for _, tc := range tests {
		if got := countInProjection(st, st.MustParseTerm(tc.term), tc.act); got != tc.count {
			t.Errorf("%s in projection of %s: %d instances, want %d", tc.act, tc.term, got, tc.count)
		}
	}
}

// TestInstancesStrict: in strict(alt(∅,l1!x),l2!y), l2!y is one-unambiguous
// by Def. 11, but executing it first discards l1!x, so a multi-trace where
// l1!x comes first would be lost: Instances reports it ambiguous.
func TestInstancesStrict(t *testing.T) {
	st := newTestStore(t, "l1,l2", "x,y")
	y, _ := st.Signature().ParseAction("l2!y")
	tests := []struct {
		term string
		want int
	}{
		{"strict(alt(∅,l1!x),l2!y)", 2},
		{"strict(alt(∅,l2!x),l2!y)", 1}, // only θ(a) actions on the left
		{"strict(l2!y,l1!x)", 1},
		{"seq(alt(∅,l1!x),l2!y)", 1},
	}
	for _, tc := range tests {
		if got := st.Instances(st.MustParseTerm(tc.term), y); got != tc.want {
			t.Errorf("Instances(%s, l2!y) = %d, want %d", tc.term, got, tc.want)
		}
	}
}

func TestNullableAndCollision(t *testing.T) {
	st := newTestStore(t, "a,b", "m")
	a, _ := st.Signature().Lifeline("a")
	tests := []struct {
		term     string
		nullable bool
		collides bool
	}{
		{"∅", true, false},
		{"a!m", false, true},
		{"alt(a!m,∅)", true, false},
		{"alt(a!m,strict(b!m,a?m))", false, true},
		{"seq(a!m,b!m)", false, true},
		{"loopS(a!m)", true, false},
		{"par(loopS(a!m),b!m)", false, false},
	}
	for _, tc := range tests {
		term := st.MustParseTerm(tc.term)
		if st.Nullable(term) != tc.nullable {
			t.Errorf("%s↓ = %v", tc.term, !tc.nullable)
		}
		if st.Collides(term, a) != tc.collides {
			t.Errorf("%s ⊗ a = %v", tc.term, !tc.collides)
		}
	}
}

func TestSyncFrontier(t *testing.T) {
	st := newTestStore(t, "a,b,c", "m,n")
	term := st.MustParseTerm("sync(a!m)(strict(a!m,b!n),strict(a!m,c!n))")
	if got, want := frontierDump(st, term), []string{"a!m@(11|21)"}; !slices.Equal(got, want) {
		t.Errorf("frontier = %v, want %v", got, want)
	}
	next := st.Step(term, 0)
	if got, want := frontierDump(st, next), []string{"b!n@1", "c!n@2"}; !slices.Equal(got, want) {
		t.Errorf("frontier after a!m = %v, want %v (%s)", got, want, st.Format(next))
	}
	// Outside the synchronized set, both sides move alone.
	term = st.MustParseTerm("sync(a!m)(seq(a!m,b!n),seq(a!m,c!n))")
	if got, want := frontierDump(st, term), []string{"a!m@(11|21)", "b!n@12", "c!n@22"}; !slices.Equal(got, want) {
		t.Errorf("frontier = %v, want %v", got, want)
	}
}

func TestLoopFollowUps(t *testing.T) {
	st := newTestStore(t, "a,b", "m,n")
	tests := []struct{ term, pos, want string }{
		{"loopS(strict(a!m,b?m))", "11", "strict(b?m,loopS(strict(a!m,b?m)))"},
		{"loopH(strict(a!m,b?m))", "11", "seq(b?m,loopH(strict(a!m,b?m)))"},
		{"loopP(strict(a!m,b?m))", "11", "par(b?m,loopP(strict(a!m,b?m)))"},
		// loopW keeps, in front, the earlier iterations that avoid a.
		{"loopW(alt(strict(a!m,b?m),b!n))", "111", "seq(loopW(b!n),seq(b?m,loopW(alt(strict(a!m,b?m),b!n))))"},
		// An iteration that ends at once leaves the loop itself.
		{"loopW(alt(a!m,b!n))", "11", "loopW(alt(a!m,b!n))"},
	}
	for _, tc := range tests {
		got, err := st.Execute(st.MustParseTerm(tc.term), tc.pos)
		if err != nil {
			t.Fatal(err)
		}
		if st.Format(got) != tc.want {
			t.Errorf("%s @%s:\n got %s\nwant %s", tc.term, tc.pos, st.Format(got), tc.want)
		}
	}
}

// TestRemoveObservedGhosts checks when lifeline removal keeps ghosts: only
// where erasing the actions on the removed lifelines could lose an order
// between observed events or a synchronization (see needsGhosts).
func TestRemoveObservedGhosts(t *testing.T) {
	st := newTestStore(t, "a,b,c", "m,n")
	c, _ := st.Signature().Lifeline("c")
	tests := []struct {
		term   string
		ghosts bool
	}{
		// Single actions and no coregion: Th. 1, removal is exact.
		{"seq(strict(a!m,c?m),strict(c!n,b?n))", false},
		{"seq(a!m,{b!n,c?n})", false},
		// A multi-action ties c to a, and c is on both sides of seq.
		{"seq({a!m,c?m},{b!n,c?n})", true},
		{"loopW(strict({a!m,c?m},c!n))", true},
		// A coregion on a: a!m before a?n only through c.
		{"coreg(a)(strict(a!m,c?m),strict(c!n,a?n))", true},
		// A sync joins actions on c.
		{"sync(c!m)(strict(a!n,c!m),strict(c!m,b!n))", true},
	}
	for _, tc := range tests {
		term := st.MustParseTerm(tc.term)
		got := st.RemoveObserved(term, LifelinesOf(c), false) != st.Remove(term, LifelinesOf(c))
		if got != tc.ghosts {
			t.Errorf("RemoveObserved(%s, c) keeps ghosts: %v, want %v", tc.term, got, tc.ghosts)
		}
	}
}
