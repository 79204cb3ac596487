package diagram

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/reference"
	"github.com/ivc-project/ivc/syntax"
)

// seeds adds the test tables' diagrams of files ending in ext, and the
// golden files of testdata with that extension.
func seeds(f *testing.F, ext string) {
	for _, c := range readTests {
		if strings.HasSuffix(c.file, ext) {
			f.Add(c.src)
		}
	}
	for _, c := range errorTests {
		if strings.HasSuffix(c.file, ext) {
			f.Add(c.src)
		}
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "*"+ext))
	for _, file := range files {
		if src, err := os.ReadFile(file); err == nil {
			f.Add(string(src))
		}
	}
}

// fuzzRead reads src as a file of the extension ext: never a panic; an
// error is a *syntax.Error with a position in the file; a diagram read
// has a signature (or a positioned error), and its interaction resolves
// against it.
func fuzzRead(t *testing.T, ext, src string) {
	d, err := Read("fuzz"+ext, []byte(src), Options{})
	if err != nil {
		var se *syntax.Error
		if !errors.As(err, &se) || se.Pos.Line < 1 || se.Pos.Col < 1 || se.Pos.Offset > len(src) {
			t.Fatalf("error without a position in the file: %v", err)
		}
		return
	}
	sig, _, err := d.SigFile().Signature(d.File)
	if err != nil {
		var se *syntax.Error
		if !errors.As(err, &se) {
			t.Fatalf("signature error without a position: %v", err)
		}
		return
	}
	if _, err := interaction.NewStore(sig).Resolve(d.File, d.Root); err != nil {
		t.Fatalf("the derived signature does not resolve the interaction: %v", err)
	}
}

func FuzzReadMermaid(f *testing.F) {
	seeds(f, ".mmd")
	f.Fuzz(func(t *testing.T, src string) { fuzzRead(t, ".mmd", src) })
}

func FuzzReadPlantUML(f *testing.F) {
	seeds(f, ".puml")
	f.Fuzz(func(t *testing.T, src string) { fuzzRead(t, ".puml", src) })
}

// FuzzWrite writes any interaction over a signature with gates and names
// to escape in both notations, and reads it back beside the signature as
// the same canonical term.
func FuzzWrite(f *testing.F) {
	f.Add("seq(a -- m -> (b,a,g), <synch>n -> c, g -- m ->|, alt(o, loopW(coreg(a,c)(a -- m -> c, sync(b!n)(b -- n -> a, b -- n ->|)))))")
	f.Add(`par(a -- m -> a, strict(m -> b, a -- " x;#%<>&amp; " -> g))`)
	f.Add("loopS(seq(a -- m -> (a,b,c), alt(a -- m -> b, o, c -- <synch>n -> (a,b))))")
	src, err := os.ReadFile("testdata/every.hif")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(src))
	hsf, err := readSignature("testdata/every.hsf")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src string) {
		n, err := interaction.ParseHIF("fuzz.hif", []byte(src))
		if err != nil {
			return
		}
		st := interaction.NewStore(hsf)
		root, err := st.Resolve("fuzz.hif", n)
		if err != nil {
			return
		}
		for _, w := range []struct {
			ext    string
			format func(*interaction.Signature, *interaction.Node, string) string
		}{{".mmd", FormatMermaid}, {".puml", FormatPlantUML}} {
			text := w.format(hsf, n, "fuzz")
			d, err := Read("fuzz"+w.ext, []byte(text), Options{})
			if err != nil {
				t.Fatalf("%s: %v\n%s", w.ext, err, text)
			}
			d.Bind(hsf)
			back, err := st.Resolve(d.File, d.Root)
			if err != nil {
				t.Fatalf("%s: %v\n%s", w.ext, err, text)
			}
			if st.Canonical(back) != st.Canonical(root) && !sameTraces(st, back, root) {
				t.Fatalf("%s: read back as %s, want %s\n%s", w.ext, st.Format(back), st.Format(root), text)
			}
		}
	})
}

// sameTraces reports whether x and y have the same global traces up to
// traceLen events. Canonical rewriting does not give every pair of equal
// terms one form: the fuzzer found seq(strict(seq(x,b?n),∅),loopP(y)),
// x and y on a, drawn and read back as seq(x,b?n,loopP(y)) (the ∅ operand
// is a note, the rect of seq(x,b?n) spliced into the operand around it),
// whose canonical forms are seq(par(b?n,x),loopP(y)) and
// seq(x,par(loopP(y),b?n)) (testdata/fuzz/FuzzWrite/9ec0a951ca799437):
// the traces tell.
func sameTraces(st *interaction.Store, x, y interaction.Term) bool {
	const traceLen = 8
	return slices.Equal(reference.Traces(st, x, traceLen).Strings(st.Signature()), reference.Traces(st, y, traceLen).Strings(st.Signature()))
}

// readSignature reads the signature of a .hsf file.
func readSignature(path string) (*interaction.Signature, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	sf, err := interaction.ParseHSF(path, src)
	if err != nil {
		return nil, err
	}
	sig, _, err := sf.Signature(path)
	return sig, err
}
