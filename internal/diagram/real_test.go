package diagram

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/interaction"
)

// TestRealDiagrams reads every sequence diagram of the files of
// testdata/diagrams, which other projects wrote: each parses, and its
// derived signature, interaction and warnings are those of the golden file
// beside it (go test -update rewrites them).
func TestRealDiagrams(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/diagrams/*/*")
	n := 0
	for _, file := range files {
		if !IsDiagram(file) || strings.EqualFold(filepath.Base(file), "README.md") {
			continue
		}
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		blocks, err := findBlocks(file, src)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		var b bytes.Buffer
		for i, blk := range blocks {
			name := fmt.Sprintf("%s#%d", file, i+1)
			d, err := Read(name, src, Options{})
			if err != nil {
				t.Errorf("%v", err)
				continue
			}
			sf := d.SigFile()
			sig, _, err := sf.Signature(d.File)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			if _, err := interaction.NewStore(sig).Resolve(d.File, d.Root); err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			fmt.Fprintf(&b, "# %s#%d (line %d)\n", filepath.Base(file), i+1, blk.pos.Line)
			for _, w := range d.Warnings {
				fmt.Fprintf(&b, "# %s\n", strings.TrimPrefix(w.Error(), "../../testdata/diagrams/"))
			}
			b.Write(interaction.FormatHSF(sf))
			b.Write(interaction.FormatHIF(d.Root))
			n++
		}
		goldenFile(t, file+".golden", b.Bytes())
	}
	if n < 50 {
		t.Errorf("%d diagrams read, want the 50 or more of testdata/diagrams", n)
	}
}

// goldenFile compares got with the file at path, or writes it with -update
// (the flag of the package's external tests).
func goldenFile(t *testing.T, path string, got []byte) {
	t.Helper()
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from what ivc reads (go test -update rewrites it; compare with git diff)", path)
	}
}
