package repair

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/verdict"
)

var sig = func() *interaction.Signature {
	sig, err := interaction.NewSignature([]string{"a", "b", "c"}, []string{"m", "n"}, nil)
	if err != nil {
		panic(err)
	}
	return sig
}()

func parse(t *testing.T, src string) *multitrace.MultiTrace {
	t.Helper()
	mt, err := multitrace.ParseResolve("mt.htf", []byte(src), sig)
	if err != nil {
		t.Fatal(err)
	}
	return mt
}

// event returns the event of text ("a!m", "{a!m,b?m}").
func event(t *testing.T, text string) interaction.MultiAction {
	t.Helper()
	return parse(t, "{[#any] "+text+"}").Components[0].Trace[0]
}

// format prints edits as verdict gives them: "-[a]@1:a!m +[b]@0:b?m".
func format(edits []verdict.Edit) string {
	var parts []string
	for _, e := range edits {
		op := "-"
		if e.Op == verdict.Insert {
			op = "+"
		}
		parts = append(parts, fmt.Sprintf("%s[%s]@%d:%s", op, strings.Join(e.Location, ","), e.Index, e.Action))
	}
	return strings.Join(parts, " ")
}

func TestApply(t *testing.T) {
	mt := parse(t, "{[a] a!m.a!n.a!m; [b,c] b?m}")
	del := func(c, i int) Edit {
		return Edit{Op: verdict.Delete, Component: c, Index: i, Event: mt.Components[c].Trace[i]}
	}
	ins := func(c, i int, text string) Edit {
		return Edit{Op: verdict.Insert, Component: c, Index: i, Event: event(t, text)}
	}
	for _, tc := range []struct {
		edits       []Edit
		want, words string
	}{
		{nil, "{[a] a!m.a!n.a!m; [b,c] b?m}", ""},
		{[]Edit{del(0, 1)}, "{[a] a!m.a!m; [b,c] b?m}", "-[a]@1:a!n"},
		// Insertions at one index go there in their order, before the
		// event there, deleted or not; Public sorts them so.
		{[]Edit{del(0, 0), ins(0, 0, "a?n"), ins(0, 0, "a?m"), ins(0, 3, "a!n")},
			"{[a] a?n.a?m.a!n.a!m.a!n; [b,c] b?m}", "+[a]@0:a?n +[a]@0:a?m -[a]@0:a!m +[a]@3:a!n"},
		{[]Edit{ins(1, 1, "{b!n,c?n}"), ins(1, 0, "b?n"), del(1, 0)},
			"{[a] a!m.a!n.a!m; [b,c] b?n.{b!n,c?n}}", "+[b,c]@0:b?n -[b,c]@0:b?m +[b,c]@1:{b!n,c?n}"},
	} {
		if got, want := Apply(mt, tc.edits), parse(t, tc.want); !got.Equal(want) {
			t.Errorf("%v: got %s, want %s", tc.words, got.Format(sig), tc.want)
		}
		if w := format(Public(sig, mt, tc.edits)); w != tc.words {
			t.Errorf("Public: %q, want %q", w, tc.words)
		}
	}
	if !mt.Equal(parse(t, "{[a] a!m.a!n.a!m; [b,c] b?m}")) {
		t.Errorf("Apply changed its multi-trace")
	}
}

// TestAlphabet lists the events of each location: the parts of the
// actions, and with a sync the joins of its operands' actions.
func TestAlphabet(t *testing.T) {
	st := interaction.NewStore(sig)
	for _, tc := range []struct {
		term, locs, want string
	}{
		{"strict(a!m,b?m)", "a;b,c", "[a!m] [b?m]"},
		{"loopS(alt({a!m,b?m},c?n))", "a;b,c", "[a!m] [b?m c?n]"},
		{"loopS(alt({a!m,b?m},c?n))", "a,b;c", "[{a!m,b?m}] [c?n]"},
		{"sync(a!m)(seq(a!m,b!n),a!m)", "a;b;c", "[a!m] [b!n] []"},
		{"sync(a!m)(seq(a!m,b!n),{a!m,c?m})", "a;b;c", "[a!m] [b!n] [c?m]"},
	} {
		term, err := st.ParseTerm(tc.term)
		if err != nil {
			t.Fatal(err)
		}
		locs, err := interaction.ParseLocations(sig, tc.locs)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, evs := range Alphabet(st, term, locs) {
			var names []string
			for _, ev := range evs {
				names = append(names, ev.Format(sig))
			}
			got = append(got, "["+strings.Join(names, " ")+"]")
		}
		if g := strings.Join(got, " "); g != tc.want {
			t.Errorf("%s on %s: %s, want %s", tc.term, tc.locs, g, tc.want)
		}
	}
}

// TestSearch finds smallest repairs with a judge that passes the
// multi-traces of a set, in increasing numbers of edits.
func TestSearch(t *testing.T) {
	alphabet := [][]interaction.MultiAction{{event(t, "a!m"), event(t, "a!n")}, {event(t, "b?m")}}
	judge := func(ok ...string) func(*multitrace.MultiTrace) verdict.Result {
		return func(mt *multitrace.MultiTrace) verdict.Result {
			for _, s := range ok {
				if mt.Equal(parse(t, s)) {
					return verdict.Result{Verdict: verdict.WeakPass, Nodes: 1}
				}
			}
			return verdict.Result{Verdict: verdict.Fail, Nodes: 1}
		}
	}
	for _, tc := range []struct {
		mt    string
		ok    []string
		opt   Options
		words string
		check func(r Result) bool
	}{
		// The event of no action is deleted first.
		{"{[a] a!m.a?m; [b,c] b?m}", []string{"{[a] a!m; [b,c] b?m}"}, Options{}, "-[a]@1:a?m", nil},
		{"{[a] a!m.a?m; [b,c] b?m}", []string{"{[a] a!n.a!m; [b,c] }"}, Options{}, "+[a]@0:a!n -[a]@1:a?m -[b,c]@0:b?m", nil},
		// Two insertions at one index, in the order that passes.
		{"{[a] ; [b,c] }", []string{"{[a] a!n.a!m; [b,c] }"}, Options{}, "+[a]@0:a!n +[a]@0:a!m", nil},
		{"{[a] a!m; [b,c] }", []string{"{[a] a!n.a!n.a!m.a!n; [b,c] }"}, Options{MaxEdits: 2}, "", func(r Result) bool { return !r.Found && !r.Incomplete }},
		// Past the budget, the end of the log is deleted from where the
		// check got stuck.
		{"{[a] a!m.a!m.a!m; [b,c] }", []string{"{[a] a!m; [b,c] }"}, Options{MaxNodes: 5, Truncate: true, Near: []int{1, 0}}, "-[a]@1:a!m -[a]@2:a!m",
			func(r Result) bool { return r.Found && r.Incomplete && r.Reason == verdict.NodeLimit }},
		{"{[a] a!m; [b,c] }", []string{"{[a] a!n.a!n.a!m.a!n; [b,c] }"}, Options{Deadline: time.Now()}, "",
			func(r Result) bool { return !r.Found && r.Incomplete && r.Reason == verdict.Timeout }},
	} {
		mt := parse(t, tc.mt)
		r := Search(mt, alphabet, judge(tc.ok...), tc.opt)
		if got := format(Public(sig, mt, r.Edits)); got != tc.words || tc.check != nil && !tc.check(r) || tc.check == nil && (!r.Found || r.Incomplete) {
			t.Errorf("%s: %q %+v, want %q", tc.mt, got, r, tc.words)
		}
	}
}
