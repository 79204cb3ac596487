package pretty

import (
	"bytes"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/internal/testutil"
)

// testdata is the repository's corpus of HIBOU files.
const testdata = "../../testdata"

// checkFixedPoint formats src and checks that the result formats to itself.
func checkFixedPoint(t *testing.T, path string, src []byte) {
	t.Helper()
	out, err := File(path, src, nil)
	if err != nil {
		t.Errorf("%v", err)
		return
	}
	again, err := File(path, out, nil)
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
		_, err := File(tc.path, []byte(tc.src), nil)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("File(%s, %q) = %v, want %q...", tc.path, tc.src, err, tc.want)
		}
	}
}

// TestKeepsComments: the last line of defence of File, which reports a
// comment that a formatter would drop instead of dropping it.
func TestKeepsComments(t *testing.T) {
	src := []byte("a -- m -> b\n  /* kept */ /* lost */")
	if err := keepsComments("x.hif", src, []byte("a -- m -> b /* kept */\n")); err == nil ||
		err.Error() != "x.hif:2:14: ivc cannot keep this comment in the canonical form: please report it, and move the comment meanwhile" {
		t.Errorf("keepsComments = %v", err)
	}
	if err := keepsComments("x.hif", src, []byte("/* lost */ a -- m -> b /* kept */\n")); err != nil {
		t.Errorf("keepsComments = %v", err)
	}
	// The same text twice must be there twice.
	if err := keepsComments("x.hif", []byte("/**/ o /**/"), []byte("/**/\no\n")); err == nil {
		t.Error("keepsComments: a repeated comment dropped once went unnoticed")
	}
}

// FuzzFormat checks that no input makes Format panic, that whatever it
// formats is a fixed point, and that it keeps every comment.
func FuzzFormat(f *testing.F) {
	for _, seed := range []struct{ ext, src string }{
		{".hsf", "@lifeline{a;b}\n@message{m}\n@gate{g}"},
		{".hsf", "@analyze_option{ strategy = DepthFS; use_locfront = true }\n@message{m}\n@lifeline{a;b}\nseq(a -- m -> b, loopW(o))"},
		{".hif", "seq(a -- m -> (b,c), alt(o, m -> a), coreg(a,b)(a -- <synch>m -> b, loopP(b -- m ->|)))"},
		{".hif", "sync(a!m, b?m)(a -- m -> b, par(a -- m ->|, m -> b))"},
		{".htf", "{ [a] a!m.a?n; [b,c] c?m.{b!x,c?x}; [d] ; [#any] e!y; [#all] f?y }"},
		{".htf", "a!m.b?m"},
		{".hcf", "@analyze_option{ analysis_kind = simulate[slice]; filters = [max_depth = 3] }\n@explore_option{ loggers = [tracegen[generation=terminal]] }"},
		// Comments everywhere.
		{".hsf", "/*a*/@lifeline{/*b*/a;/*c*/b}/*d*/\n/*e*/@message{m}\n/*f*/"},
		{".hsf", "/*a*/@analyze_option{/*b*/ strategy = DFS /*c*/; por=true}/*d*/\n@message{m}/*e*/@lifeline{a;b}\n/*f*/seq(a -- m -> b /*g*/, /*h*/o)/*i*/\n/*j*/"},
		{".hif", "/*a*/seq(/*b*/a -- /*c*/m -> b /*d*/,\n/*e*/ alt(o, o /*f*/\n/*g*/) /*h*/)/*i*/\n/*j*/"},
		{".htf", "/*a*/{/*b*/ [a /*c*/] a!m /*d*/. /*e*/ a?n /*f*/;/*g*/\n/*h*/[b] {b!x,/*i*/c?x} ; [#any/*j*/] ;/*k*/}/*l*/\n/*m*/"},
		{".htf", "/*a*/ a!m /*b*/./*c*/b?m /*d*/"},
		{".htf", "/*a*/[a] a!m; /*b*/\n/*c*/[b] b?m;/*d*/"},
		{".hcf", "/*a*/@analyze_option{/*b*/ strategy = DFS /*c*/; /*d*/\n/*e*/por=true/*f*/}/*g*/\n/*h*/@explore_option{/*i*/}/*j*/"},
		{".hcf", "@explore_option{ /*a*/ filters = [] /*b*/; priorities = [ /*c*/ ] }"},
		// A comment on the last line of a multi-line one that trails.
		{".hif", "A /*\n*/ -> A /**/"},
		{".htf", "a!m /*\n*/ /**/ . b?m"},
		{".htf", "{[A/*\n*/]/**/}"}, // the same after a component (multitrace's own scanner)
	} {
		f.Add(uint8(slices.Index(Extensions, seed.ext)), []byte(seed.src))
	}
	f.Fuzz(func(t *testing.T, kind uint8, src []byte) {
		path := "fuzz" + Extensions[int(kind)%len(Extensions)]
		out, err := File(path, src, nil)
		if err != nil {
			if strings.Contains(err.Error(), "cannot keep this comment") {
				t.Fatalf("%v\n%s", err, src)
			}
			return
		}
		again, err := File(path, out, nil)
		if err != nil {
			t.Fatalf("the canonical form does not parse: %v\n%s", err, out)
		}
		if !bytes.Equal(again, out) {
			t.Fatalf("formatting is not a fixed point:\n%s\nthen\n%s", out, again)
		}
	})
}

// TestFormatKeepsComments puts comments at random places between the
// tokens of the files of testdata, on lines of their own or ending a line,
// and checks that File keeps every one of them and is a fixed point.
func TestFormatKeepsComments(t *testing.T) {
	var files []string
	err := filepath.WalkDir(testdata, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && slices.Contains(Extensions, filepath.Ext(path)) {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	n := 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(src) > 20000 {
			continue
		}
		if _, err := File(path, src, nil); err != nil {
			continue // not a file of ivc's formats (a legacy one it refuses)
		}
		// The places between tokens: the start, the end, every space and
		// both sides of most symbols.
		places := []int{0, len(src)}
		for i, c := range src {
			switch {
			case c == ' ' || c == '\n':
				places = append(places, i)
			case strings.IndexByte(".,;[]{}()!?=", c) >= 0:
				places = append(places, i, i+1)
			}
		}
		n++
		for trial := range 40 {
			var b []byte
			marks := map[int]string{}
			for k := range 1 + rng.IntN(6) {
				at := places[rng.IntN(len(places))]
				text := fmt.Sprintf("/* c%d.%d */", trial, k)
				if rng.IntN(2) == 0 {
					text = "\n" + text + "\n"
				} else {
					text = " " + text + " "
				}
				marks[at] += text
			}
			for i := 0; i <= len(src); i++ {
				b = append(b, marks[i]...)
				if i < len(src) {
					b = append(b, src[i])
				}
			}
			out, err := File(path, b, nil)
			if err != nil {
				t.Errorf("%s: %v\n%s", path, err, b)
				continue
			}
			for k := 0; strings.Contains(string(b), fmt.Sprintf("c%d.%d ", trial, k)); k++ {
				if !strings.Contains(string(out), fmt.Sprintf("/* c%d.%d */", trial, k)) {
					t.Errorf("%s: comment c%d.%d dropped:\n%s\n→\n%s", path, trial, k, b, out)
				}
			}
			again, err := File(path, out, nil)
			if err != nil || !bytes.Equal(again, out) {
				t.Errorf("%s: not a fixed point (%v):\n%s\n→\n%s\n→\n%s", path, err, b, out, again)
			}
		}
	}
	if n < 10 {
		t.Errorf("commented %d files of testdata", n)
	}
}

// TestFormatDuplicates: a name declared twice is kept as written (loading
// warns about it, and the first declaration counts).
func TestFormatDuplicates(t *testing.T) {
	src := "@message{\n  SendCommand;\n  SendComplete;\n  SendComplete\n}\n@lifeline{host;tpm;host}\n"
	out, err := File("tpm.hsf", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(out), "SendComplete") != 2 || strings.Count(string(out), "host") != 2 {
		t.Errorf("File dropped a declaration:\n%s", out)
	}
}
