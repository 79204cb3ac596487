package multitrace

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/input"
	"github.com/ivc-project/ivc/syntax"
)

func testSig(t testing.TB) *interaction.Signature {
	sig, err := interaction.NewSignature([]string{"a", "b", "c", "d"}, []string{"m", "n", "x"}, []string{"g"})
	if err != nil {
		t.Fatal(err)
	}
	return sig
}

// resolveBoth resolves src in one pass and in two steps, and checks that
// both ways agree.
func resolveBoth(t *testing.T, src string, sig *interaction.Signature) (*MultiTrace, error) {
	t.Helper()
	mt, err := ParseResolve("t.htf", []byte(src), sig)
	var mt2 *MultiTrace
	f, err2 := Parse("t.htf", []byte(src))
	if err2 == nil {
		mt2, err2 = f.Resolve("t.htf", sig)
	}
	switch {
	case (err == nil) != (err2 == nil):
		t.Errorf("%q: ParseResolve error %v, Parse+Resolve error %v", src, err, err2)
	case err != nil && err.Error() != err2.Error():
		t.Errorf("%q: ParseResolve error\n%v\nParse+Resolve error\n%v", src, err, err2)
	case err == nil && !mt.Equal(mt2):
		t.Errorf("%q: ParseResolve\n%s\nParse+Resolve\n%s", src, mt.Format(sig), mt2.Format(sig))
	}
	return mt, err
}

func TestResolve(t *testing.T) {
	sig := testSig(t)
	tests := []struct{ name, src, want string }{
		{"explicit, completed in signature order", "{ [c] c!m.c?n; [a,b] b?m }",
			"{\n\t[c] c!m.c?n;\n\t[a,b] b?m;\n\t[d] ;\n}\n"},
		{"any", "{ [#any] a!m.b?m.a?n; [c] }",
			"{\n\t[a,b] a!m.b?m.a?n;\n\t[c] ;\n\t[d] ;\n}\n"},
		{"all first", "{ [#all] a!m.c?m; [b] b!x }",
			"{\n\t[a,c,d] a!m.c?m;\n\t[b] b!x\n}\n"},
		{"all empty", "{ [a] a!m; [#all] }",
			"{\n\t[a] a!m;\n\t[b,c,d] ;\n}\n"},
		{"all after any", "{ [#all] a!m; [#any] b?m.c!x }",
			"{\n\t[a,d] a!m;\n\t[b,c] b?m.c!x\n}\n"},
		{"bare trace", "a!m.b?m.{d?m,c?m}",
			"{\n\t[a,b,c,d] a!m.b?m.{c?m,d?m}\n}\n"},
		{"legacy", "[a] a!m; [b] ; [c,d] c?m",
			"{\n\t[a] a!m;\n\t[b] ;\n\t[c,d] c?m\n}\n"},
		{"multi-actions sorted", "{ [a,b] {b?m,a!m}.{a?n,a!n}.a!m }",
			"{\n\t[a,b] {a!m,b?m}.{a!n,a?n}.a!m;\n\t[c] ;\n\t[d] ;\n}\n"},
		{"no component", "{ }",
			"{\n\t[a] ;\n\t[b] ;\n\t[c] ;\n\t[d] ;\n}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mt, err := resolveBoth(t, tt.src, sig)
			if err != nil {
				t.Fatal(err)
			}
			if got := string(mt.Format(sig)); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
			back, err := ParseResolve("t.htf", mt.Format(sig), sig)
			if err != nil {
				t.Fatalf("resolving the printed multi-trace: %v", err)
			}
			if !back.Equal(mt) {
				t.Errorf("printed multi-trace resolves to\n%s", back.Format(sig))
			}
		})
	}
}

func TestResolveValues(t *testing.T) {
	sig := testSig(t)
	mt, err := ParseResolve("t.htf", []byte("{ [b] b?n.{b!x,b?m}; [#any] d!m }"), sig)
	if err != nil {
		t.Fatal(err)
	}
	act := func(s string) interaction.Action {
		a, err := sig.ParseAction(s)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	want := &MultiTrace{Components: []Component{
		{interaction.LifelinesOf(1), []interaction.MultiAction{
			{act("b?n")}, interaction.NewMultiAction(act("b!x"), act("b?m"))}},
		{interaction.LifelinesOf(3), []interaction.MultiAction{{act("d!m")}}},
		{interaction.LifelinesOf(0), nil},
		{interaction.LifelinesOf(2), nil},
	}}
	if !mt.Equal(want) {
		t.Errorf("got\n%s\nwant\n%s", mt.Format(sig), want.Format(sig))
	}
	if mt.Len() != 3 {
		t.Errorf("Len = %d, want 3", mt.Len())
	}
	if ma := mt.Components[0].Trace[1]; ma[0] != act("b?m") && ma[0] != act("b!x") || len(ma) != 2 || ma[0] > ma[1] {
		t.Errorf("multi-action not sorted: %v", ma)
	}
	other := *want
	other.Components = append([]Component(nil), want.Components...)
	other.Components[1].Trace = []interaction.MultiAction{{act("d?m")}}
	if want.Equal(&other) {
		t.Error("Equal ignores a different action")
	}
}

func TestResolveErrors(t *testing.T) {
	sig := testSig(t)
	tests := []struct{ src, want string }{
		{"{ [a,e] }", `1:6: undeclared lifeline "e" (add it to @lifeline in the signature)`},
		{"{ [a] a!m.e?m }", `1:11: undeclared lifeline "e" (add it to @lifeline in the signature)`},
		{"{ [a] a!m.a?zz }", `1:13: undeclared message "zz" (add it to @message in the signature)`},
		{"{ [a,g] }", `1:6: "g" is a gate, not a lifeline: a component lists lifelines`},
		{"g!m", `1:1: "g" is a gate, not a lifeline: gates do not occur in multi-traces`},
		{"{ [a,b] a!m.c!m }", `1:13: c!m is on c, outside component [a,b]`},
		{"{ [a] ; [b] a?m }", `1:13: a?m is on a, outside component [b]`},
		{"{ [a,b,a] }", `1:8: lifeline "a" is listed twice in this component (first at 1:4)`},
		{"{ [a] ;\n  [b,a] }", `2:6: lifeline "a" is in two components: here and at 1:4 (a lifeline belongs to one location)`},
		{"{ [a] ; [#any] b!m.a!m }", `1:20: lifeline "a" is in two components: here and at 1:4 (a lifeline belongs to one location)`},
		{"{ [#any] b!m.a!m; [c,a] }", `1:22: lifeline "a" is in two components: here and at 1:14 (a lifeline belongs to one location)`},
		{"{ [#any] b!m; [#any] c!m.b?m }", `1:26: lifeline "b" is in two components: here and at 1:10 (a lifeline belongs to one location)`},
		{"{ [a] {a!m,a?m,a!m} }", `1:16: action a!m is repeated in this multi-action (first at 1:8)`},
		{"{ [#all] a!m; [#all] }", `1:15: more than one [#all] component (the first is at 1:3)`},
		{"{ [a,b] ; [#all] ; [c,d] }", `1:11: component [#all] has no lifeline left: every lifeline of the signature is in another component`},
		{"{ [#all] c!m.a!m.b!m; [b] ; [a] }", `1:14: a!m is on a, outside component [#all] (a is in the component at 1:29)`},
		{"{ [#any] ; [a] }", `1:3: cannot infer the lifelines of an empty [#any] component: list them, as in [a,b] ;`},
		{"{ [a] a!m.zz?m }", `1:11: undeclared lifeline "zz" (add it to @lifeline in the signature)`},
		// A syntax error wins over a resolution error met earlier.
		{"{ [e] ; [a] a!m. }", `1:18: expected an action such as a!m or a multi-action such as {a!m,b?m} after '.', found '}'`},
		{"", `1:1: empty file: expected a multi-trace such as { [a] a!m; [b] b?m } or a trace such as a!m.b?m`},
	}
	for _, tt := range tests {
		_, err := resolveBoth(t, tt.src, sig)
		if err == nil {
			t.Errorf("%q: no error, want %s", tt.src, tt.want)
			continue
		}
		if _, ok := err.(*syntax.Error); !ok {
			t.Errorf("%q: error of type %T", tt.src, err)
		}
		if got, want := err.Error(), "t.htf:"+tt.want; got != want {
			t.Errorf("%q:\n got %s\nwant %s", tt.src, got, want)
		}
	}
}

func TestResolveBuiltFile(t *testing.T) {
	sig := testSig(t)
	name := func(s string) interaction.Name { return interaction.Name{Text: s} }
	for _, f := range []*File{
		{Components: []ComponentSyntax{{Kind: Explicit}}},
		{Components: []ComponentSyntax{{Kind: Kind(7), Lifelines: []interaction.Name{name("a")}}}},
		{Components: []ComponentSyntax{{Kind: Any, Trace: []EventSyntax{{}}}}},
	} {
		if _, err := f.Resolve("t.htf", sig); err == nil {
			t.Errorf("%+v: no error", f)
		}
	}
	f := &File{Components: []ComponentSyntax{{Kind: Explicit, Lifelines: []interaction.Name{name("b")},
		Trace: []EventSyntax{{Acts: []interaction.ActionSyntax{{Lifeline: name("b"), Kind: interaction.Reception, Msg: name("x")}}}}}}}
	mt, err := f.Resolve("t.htf", sig)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(mt.Format(sig)); got != "{\n\t[b] b?x;\n\t[a] ;\n\t[c] ;\n\t[d] ;\n}\n" {
		t.Errorf("got\n%s", got)
	}
}

func TestRead(t *testing.T) {
	sig := testSig(t)
	path := filepath.Join(t.TempDir(), "run.htf")
	if err := os.WriteFile(path, []byte("{\n\t[a] a!m;\n\t[b] b?q\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Read(path, sig)
	if err == nil || err.Error() != path+`:3:8: undeclared message "q" (add it to @message in the signature)` {
		t.Errorf("Read: %v", err)
	}
	if _, err := Read(filepath.Join(t.TempDir(), "missing.htf"), sig); err == nil || !strings.Contains(err.Error(), "missing.htf") {
		t.Errorf("Read of a missing file: %v", err)
	}
}

// TestReadLimit: a multi-trace larger than the limit, or a device (here a
// link to /dev/zero, which has no end), is an error naming the file, not a
// read that exhausts the memory.
func TestReadLimit(t *testing.T) {
	sig := testSig(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "run.htf")
	src := "{ [a] a!m }"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadLimit(path, sig, int64(len(src))); err != nil {
		t.Errorf("a file of the limit's size: %v", err)
	}
	_, err := ReadLimit(path, sig, int64(len(src)-1))
	if !errors.Is(err, input.ErrTooLarge) || !strings.Contains(err.Error(), "run.htf") {
		t.Errorf("a file larger than the limit: %v", err)
	}
	if _, err := os.Stat("/dev/zero"); err != nil {
		return
	}
	link := filepath.Join(dir, "zero.htf")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(link, sig); !errors.Is(err, input.ErrNotRegular) || !strings.Contains(err.Error(), "zero.htf") {
		t.Errorf("a link to /dev/zero: %v", err)
	}
}

// TestClone: a clone is equal to its multi-trace (multi-actions of several
// actions, an empty component) and shares no memory with it.
func TestClone(t *testing.T) {
	sig := testSig(t)
	mt, err := ParseResolve("t.htf", []byte("{ [a,b] a!m.{a!n,b?m}; [c] ; [d] d!x }"), sig)
	if err != nil {
		t.Fatal(err)
	}
	c := mt.Clone()
	if !c.Equal(mt) || string(c.Format(sig)) != string(mt.Format(sig)) {
		t.Fatalf("clone %s, want %s", c.Format(sig), mt.Format(sig))
	}
	c.Components[0].Trace[1][0] = c.Components[2].Trace[0][0]
	c.Components[2].Trace[0] = nil
	if c.Equal(mt) || mt.Components[0].Trace[1][0] == mt.Components[2].Trace[0][0] || mt.Components[2].Trace[0] == nil {
		t.Errorf("writing the clone changed its multi-trace: %s", mt.Format(sig))
	}
}
