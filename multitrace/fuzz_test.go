package multitrace

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/testutil"
)

// fuzzSeeds adds the .htf files of testdata and a few hand-written inputs.
func fuzzSeeds(f *testing.F) {
	paths, _ := filepath.Glob("testdata/*.htf")
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	for _, s := range []string{
		"{ [a] a!m.a?n; [b,c] c?m; [d] ; [#any] {l1!m1,l2?m1}.l1!m2; [#all] l3?m3 }",
		"{ }", "{;}", "a!m.b?m", "{a!m,b?m}.c!n", "[#all] a!m", "[a] a!m; [b] ;",
		"{ [a] /* c */ a ! m }", "{ [#any] }", "{ [g] g!m }", "{ [a,a] }", "{ [#all]; [#all] }",
		`{ ["a",b] "a"!"m".{b?m,"a"?"x"}; ["c"] "c"!"n" }`, `"a b"!"m\"\\"`, `{ [a] a!"m`,
	} {
		f.Add([]byte(s))
	}
}

// FuzzParse checks that Parse never panics or hangs, and that what it
// accepts prints to text that parses to the same file and prints the same.
func FuzzParse(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := Parse("fuzz.htf", src)
		if err != nil {
			return
		}
		printed := Format(file)
		again, err := Parse("printed.htf", printed)
		if err != nil {
			t.Fatalf("reparsing the formatted text: %v\n%s", err, printed)
		}
		if !sameSyntax(file, again) {
			t.Fatalf("Parse(Format(f)) differs from f:\n%s", printed)
		}
		if p2 := Format(again); string(p2) != string(printed) {
			t.Fatalf("Format is not idempotent:\n%s\n%s", printed, p2)
		}
	})
}

// fuzzSignature covers the names of the seeds, including a gate.
func fuzzSignature(tb testing.TB) *interaction.Signature {
	sig, err := interaction.NewSignature(
		[]string{"a", "b", "c", "d", "l1", "l2", "l3", "l4", "l5", "S", "K", "L", "R"},
		[]string{"m", "n", "x", "m1", "m2", "m3", "m4", "m5", "m6", "d", "d_zero", "d_one", "zero", "one", "ce"},
		[]string{"g"})
	if err != nil {
		tb.Fatal(err)
	}
	return sig
}

// FuzzResolve checks that resolving never panics, that ParseResolve and
// Parse+Resolve agree on the result or the error, and that a resolved
// multi-trace prints to text that resolves to it again.
func FuzzResolve(f *testing.F) {
	fuzzSeeds(f)
	sig := fuzzSignature(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		mt, err := ParseResolve("fuzz.htf", src, sig)
		var mt2 *MultiTrace
		file, err2 := Parse("fuzz.htf", src)
		if err2 == nil {
			mt2, err2 = file.Resolve("fuzz.htf", sig)
		}
		if (err == nil) != (err2 == nil) || err != nil && err.Error() != err2.Error() {
			t.Fatalf("ParseResolve error %v, Parse+Resolve error %v", err, err2)
		}
		if err != nil {
			return
		}
		if !mt.Equal(mt2) {
			t.Fatalf("ParseResolve\n%s\nParse+Resolve\n%s", mt.Format(sig), mt2.Format(sig))
		}
		var all interaction.Lifelines
		for _, c := range mt.Components {
			if c.Lifelines.IsEmpty() || c.Lifelines.Meets(all) {
				t.Fatalf("components do not partition the lifelines:\n%s", mt.Format(sig))
			}
			all = all.Union(c.Lifelines)
			for _, e := range c.Trace {
				if len(e) == 0 || !e.Lifelines().SubsetOf(c.Lifelines) {
					t.Fatalf("event %v outside its component:\n%s", e, mt.Format(sig))
				}
			}
		}
		if all != sig.AllLifelines() {
			t.Fatalf("components miss lifelines:\n%s", mt.Format(sig))
		}
		printed := mt.Format(sig)
		back, err := ParseResolve("printed.htf", printed, sig)
		if err != nil {
			t.Fatalf("resolving the printed multi-trace: %v\n%s", err, printed)
		}
		if !back.Equal(mt) {
			t.Fatalf("the printed multi-trace resolves to\n%s\nnot\n%s", back.Format(sig), printed)
		}
	})
}

// FuzzParseWholeInput: a .htf that parses was consumed whole (see
// testutil.WholeInput).
func FuzzParseWholeInput(f *testing.F) {
	fuzzSeeds(f)
	for _, s := range []string{"\ufeff{ [a] a!m }", "{ [a] a!m } /* c */", "a!m.b?m\n", "[a] a!m;"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		testutil.WholeInput(t, src, func(src []byte) error {
			_, err := Parse("fuzz.htf", src)
			return err
		}, testutil.ScannerTrailers)
	})
}
