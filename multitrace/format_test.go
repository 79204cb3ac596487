package multitrace

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestFormatSource: FormatSource keeps the comments where they are, with
// respect to the components, and is a fixed point (ivc fmt -w
// used to delete them).
func TestFormatSource(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"no comment", "{ [a] a!m.a?n ; [b,c] b?m.{b!n,c?n}; [#any] ;}",
			"{\n\t[a] a!m.a?n;\n\t[b,c] b?m.{b!n,c?n};\n\t[#any] ;\n}\n"},
		{"around components", "/* run 1 */\n{ /* first */\n[a] a!m; /* a's */\n/* b's */\n[b] b?m /* last */\n/* end */\n} /* closed */\n/* bottom */",
			"/* run 1 */\n{\n\t/* first */\n\t[a] a!m; /* a's */\n\t/* b's */\n\t[b] b?m; /* last */\n\t/* end */\n} /* closed */\n/* bottom */\n"},
		{"within a component", "{ [a, /* l */ b] a!m /* e */ . /* f */ b?m.{a?n, /* g */ b!n} }",
			"{\n\t[a, /* l */ b] a!m. /* e */ /* f */ b?m.{a?n, /* g */ b!n}\n}\n"},
		{"in the brackets of #any", "{ [a] ; [ /* x */ #any /* y */ ] a!m /* z */ }",
			"{\n\t[a] ;\n\t[#any] /* x */ /* y */ a!m /* z */\n}\n"},
		{"at the end of a component", "{ [a] a!m /* a */ ;\n[b] /* b */ ; [c] c?m\n/* c */ }",
			"{\n\t[a] a!m; /* a */\n\t[b] ; /* b */\n\t[c] c?m;\n\t/* c */\n}\n"},
		{"before a component on its line", "{ [a] a!m; /* b */ [b] b?m /* c */ ; [c] ; }",
			"{\n\t[a] a!m;\n\t/* b */\n\t[b] b?m; /* c */\n\t[c] ;\n}\n"},
		{"empty multi-trace", "{ /* nothing yet */ }", "{\n\t/* nothing yet */\n}\n"},
		{"bare trace", "/* global */ a!m /* c */ .b?m", "/* global */\n{\n\t[#all] a!m. /* c */ b?m\n}\n"},
		{"legacy", "[a] a!m; /* a */\n/* b */\n[b] b?m;\n/* end */", "{\n\t[a] a!m; /* a */\n\t/* b */\n\t[b] b?m;\n\t/* end */\n}\n"},
		{"bare multi-action", "{ /* c */ a!m, b?m }.c!x", "{\n\t[#all] /* c */ {a!m,b?m}.c!x\n}\n"},
	} {
		got, err := FormatSource("c.htf", []byte(tc.src))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if string(got) != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
		if again, err := FormatSource("c.htf", got); err != nil || !bytes.Equal(again, got) {
			t.Errorf("%s: not a fixed point (%v):\n%s", tc.name, err, again)
		}
	}
}

// TestFormatSourceIsFormat: without comments, FormatSource prints what
// Format prints of the File that Parse reads.
func TestFormatSourceIsFormat(t *testing.T) {
	paths, _ := filepath.Glob("testdata/*.htf")
	more, _ := filepath.Glob("../testdata/*/*.htf")
	n := 0
	for _, p := range append(paths, more...) {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Parse(p, src)
		if err != nil || bytes.Contains(src, []byte("/*")) {
			continue
		}
		got, err := FormatSource(p, src)
		if err != nil || !bytes.Equal(got, Format(f)) {
			t.Errorf("%s: FormatSource (%v)\n%s\nFormat\n%s", p, err, got, Format(f))
		}
		n++
	}
	if n < 5 {
		t.Errorf("compared %d files", n)
	}
}

// TestFormatSourceMemory: formatting a long log takes about the memory of
// its output, not that of a syntax tree (ivc fmt took 43 times
// the size of a 102 MB .htf).
func TestFormatSourceMemory(t *testing.T) {
	var b strings.Builder
	b.WriteString("{\n\t[a,b] a!m")
	for b.Len() < 1<<20 {
		b.WriteString(".b?m.{a!n,b?n}")
	}
	b.WriteString("\n}\n")
	src := []byte(b.String())
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	out, err := FormatSource("long.htf", src)
	runtime.ReadMemStats(&after)
	if err != nil || !bytes.Equal(out, src) {
		t.Fatalf("FormatSource: %v", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 2*uint64(len(src)) {
		t.Errorf("FormatSource allocated %d bytes for %d bytes of input, want at most twice", alloc, len(src))
	}
}
