package interaction

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/internal/testutil"
)

// corpusSeeds adds every file with extension ext under testdata/corpus as a
// seed of f.
func corpusSeeds(f *testing.F, ext string) {
	err := filepath.WalkDir(filepath.Join("testdata", "corpus"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ext {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f.Add(src)
		return nil
	})
	if err != nil {
		f.Fatal(err)
	}
}

// FuzzParseHIF: any input either fails with a positioned error or parses to
// a syntax tree whose canonical printing parses back to the same tree; when
// it resolves against the test signature, its term prints back to itself,
// simplifies idempotently, and every step of its frontier executes.
func FuzzParseHIF(f *testing.F) {
	corpusSeeds(f, ".hif")
	for _, s := range []string{
		"seq(a -- m -> (b,c), alt(o, m -> a), coreg(a,b)(a -- <synch>m -> b, loopP(b -- m ->|)))",
		"sync{a!m,b?m}(a -- m -> b, par(a -- m ->|, m -> b))",
		"loopW(strict(g -- n -> a, loop S(a -- m -> h)))",
		`seq("a" -- "m" -> ("b",c), "o" -> a, "x y" -- "I'm \"q\"\\" ->|, sync{"a"!m,b?"n"}(o, "seq" -- n ->|))`,
	} {
		f.Add([]byte(s))
	}
	sig := testSignature(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		n, err := ParseHIF("fuzz.hif", src)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.hif:") {
				t.Fatalf("error without a position: %v", err)
			}
			return
		}
		printed := FormatHIF(n)
		again, err := ParseHIF("printed.hif", printed)
		if err != nil {
			t.Fatalf("the printed form does not parse: %v\n%s", err, printed)
		}
		if !nodeEqual(n, again) {
			t.Fatalf("the printed form parses to another tree:\n%s", printed)
		}
		st := NewStore(sig)
		term, err := st.Resolve("fuzz.hif", n)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.hif:") {
				t.Fatalf("error without a position: %v", err)
			}
			return
		}
		back, err := ParseHIF("term.hif", []byte(st.FormatTerm(term)))
		if err != nil {
			t.Fatalf("FormatTerm does not parse: %v", err)
		}
		if t2, err := st.Resolve("term.hif", back); err != nil || t2 != term {
			t.Fatalf("FormatTerm does not resolve back to the term (%v)", err)
		}
		simple := st.Simplify(term)
		if st.Simplify(simple) != simple {
			t.Fatalf("Simplify is not idempotent on %s", st.Format(term))
		}
		if k := st.NumFrontier(simple); k <= 64 {
			for i := range k {
				st.Step(simple, i)
			}
		}
	})
}

// FuzzParseHSF: any input either fails with a positioned error or parses to
// sections whose canonical printing parses back to the same sections.
func FuzzParseHSF(f *testing.F) {
	corpusSeeds(f, ".hsf")
	f.Add([]byte("@lifeline{a;b}\n@message{m}\n@gate{g}"))
	f.Add([]byte(`@lifeline{gw = "api-gateway"; "b c"; d = e}` + "\n" + `@message{p = "GET /x"; "m\\n\""}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := ParseHSF("fuzz.hsf", src)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.hsf:") {
				t.Fatalf("error without a position: %v", err)
			}
			return
		}
		_, warnings, err := file.Signature("fuzz.hsf")
		for _, w := range warnings {
			if !strings.HasPrefix(w.Error(), "fuzz.hsf:") || !strings.Contains(w.Error(), ": warning: ") {
				t.Fatalf("warning without a position: %v", w)
			}
		}
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.hsf:") {
				t.Fatalf("error without a position: %v", err)
			}
			return
		}
		if len(file.Options) > 0 || file.Interaction != nil {
			return // legacy files: spec.FuzzFormat covers them
		}
		printed := FormatHSF(file)
		again, err := ParseHSF("printed.hsf", printed)
		if err != nil {
			t.Fatalf("the printed form does not parse: %v\n%s", err, printed)
		}
		if !bytes.Equal(FormatHSF(again), printed) {
			t.Fatalf("printing is not a fixed point:\n%s", printed)
		}
	})
}

// FuzzParseTerm: the dump syntax of terms (Store.Format) parses back to the
// same term, and any other input is an error, never a panic.
func FuzzParseTerm(f *testing.F) {
	for _, s := range []string{
		"seq(strict(a!m,b?m),alt(∅,loopW(par(a?m,c!n))))",
		"sync(a!m,b?m)(strict(a!m,b?m),{a!m,b?m})",
		"coreg(a,b)(strict(a!m,b?m),loopP(c!n))",
	} {
		f.Add(s)
	}
	sig := testSignature(f)
	f.Fuzz(func(t *testing.T, src string) {
		st := NewStore(sig)
		term, err := st.ParseTerm(src)
		if err != nil {
			return
		}
		text := st.Format(term)
		t2, err := st.ParseTerm(text)
		if err != nil && !strings.Contains(err.Error(), "nested more than") {
			t.Fatalf("Format does not parse: %v\n%s", err, text)
		}
		if err == nil && t2 != term {
			t.Fatalf("%s parses to another term", text)
		}
	})
}

// wholeInputSeeds are inputs that once parsed although they held garbage
// after a complete term, and inputs that parse.
var wholeInputSeeds = []string{
	"a -- m -> b", "a -- m -> b\n%% garbage", "a -- m -> b\n/* unterminated", "a -- m -> b\xff",
	"a -- m -> b\x01", "a -- m -> b\ufeff", "\ufeffseq(a -- m -> b, o) /* done */",
	"@lifeline{a;b}\n@message{m}", "@lifeline{a}\n@message{m}\n@analyze_option{ goal = Pass }\na -- m ->|",
	"@mess\x00age{m}",
}

// FuzzHIFWholeInput: a .hif that parses was consumed whole (see
// testutil.WholeInput).
func FuzzHIFWholeInput(f *testing.F) {
	corpusSeeds(f, ".hif")
	for _, s := range wholeInputSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		testutil.WholeInput(t, src, func(src []byte) error {
			_, err := ParseHIF("fuzz.hif", src)
			return err
		}, testutil.ScannerTrailers)
	})
}

// FuzzHSFWholeInput: a .hsf that parses was consumed whole (see
// testutil.WholeInput).
func FuzzHSFWholeInput(f *testing.F) {
	corpusSeeds(f, ".hsf")
	for _, s := range wholeInputSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		testutil.WholeInput(t, src, func(src []byte) error {
			_, err := ParseHSF("fuzz.hsf", src)
			return err
		}, testutil.ScannerTrailers)
	})
}
