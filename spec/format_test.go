package spec

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/internal/testutil"
)

// checkFixedPoint formats src and checks that the result formats to itself.
func checkFixedPoint(t *testing.T, path string, src []byte) {
	t.Helper()
	out, err := Format(path, src, nil)
	if err != nil {
		t.Errorf("%v", err)
		return
	}
	again, err := Format(path, out, nil)
	if err != nil {
		t.Errorf("%s: the canonical form does not parse: %v\n%s", path, err, out)
		return
	}
	if !bytes.Equal(again, out) {
		t.Errorf("%s: formatting is not a fixed point:\n%s\nthen\n%s", path, out, again)
	}
}

// formatFiles formats the HIBOU files below dir; with step > 1 it checks
// one multi-trace in step (there are thousands in the corpus).
func formatFiles(t *testing.T, dir string, step int) int {
	n, htf := 0, 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		ext := filepath.Ext(path)
		if !strings.Contains(".hsf.hif.htf.hcf", ext) || ext == "" {
			return nil
		}
		if ext == ".htf" {
			htf++
			if htf%step != 0 {
				return nil
			}
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		checkFixedPoint(t, path, src)
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestFormatTestdata(t *testing.T) {
	if n := formatFiles(t, testdata, 1); n < 15 {
		t.Errorf("formatted %d files in testdata", n)
	}
}

// TestFormatCorpus formats the shared corpus: every spec and option file,
// and a sample of its multi-traces (all of them with -tags sweep).
func TestFormatCorpus(t *testing.T) {
	dir := filepath.Join(testutil.Shared(t), "corpus")
	step := 50
	if testutil.Sweep() {
		step = 1
	}
	if n := formatFiles(t, dir, step); n < 300 {
		t.Errorf("formatted %d files in the corpus", n)
	}
}

func TestFormatErrors(t *testing.T) {
	for _, tc := range []struct{ path, src, want string }{
		{"x.txt", "", `x.txt: unknown kind of file ".txt" (want .hsf, .hif, .htf, .hcf)`},
		{"x.hif", "seq(o", "x.hif:1:6: "},
		{"x.hsf", "@lifeline{a}@gate{a}", "x.hsf:1:19: "},
		{"x.hsf", "@lifeline{a}\n@message{m}\na -- m -> b", "x.hsf:3:11: "},
		{"x.htf", "{[a] a!m b?m}", "x.htf:1:10: "},
		{"x.hcf", "@analyze_option{ goal = Never }", "x.hcf:1:25: "},
	} {
		_, err := Format(tc.path, []byte(tc.src), nil)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("Format(%s, %q) = %v, want %q...", tc.path, tc.src, err, tc.want)
		}
	}
}

// FuzzFormat checks that no input makes Format panic, and that whatever it
// formats is a fixed point.
func FuzzFormat(f *testing.F) {
	for _, seed := range []struct{ ext, src string }{
		{".hsf", "@lifeline{a;b}\n@message{m}\n@gate{g}"},
		{".hsf", "@analyze_option{ strategy = DepthFS; use_locfront = true }\n@message{m}\n@lifeline{a;b}\nseq(a -- m -> b, loopW(o))"},
		{".hif", "seq(a -- m -> (b,c), alt(o, m -> a), coreg(a,b)(a -- <synch>m -> b, loopP(b -- m ->|)))"},
		{".hif", "sync(a!m, b?m)(a -- m -> b, par(a -- m ->|, m -> b))"},
		{".htf", "{ [a] a!m.a?n; [b,c] c?m.{b!x,c?x}; [d] ; [#any] e!y; [#all] f?y }"},
		{".htf", "a!m.b?m"},
		{".hcf", "@analyze_option{ analysis_kind = simulate[slice]; filters = [max_depth = 3] }\n@explore_option{ loggers = [tracegen[generation=terminal]] }"},
	} {
		f.Add(uint8(slices.Index(Extensions, seed.ext)), []byte(seed.src))
	}
	f.Fuzz(func(t *testing.T, kind uint8, src []byte) {
		path := "fuzz" + Extensions[int(kind)%len(Extensions)]
		out, err := Format(path, src, nil)
		if err != nil {
			return
		}
		again, err := Format(path, out, nil)
		if err != nil {
			t.Fatalf("the canonical form does not parse: %v\n%s", err, out)
		}
		if !bytes.Equal(again, out) {
			t.Fatalf("formatting is not a fixed point:\n%s\nthen\n%s", out, again)
		}
	})
}
