package multitrace

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/testutil"
)

// corpusDir returns the HIBOU corpus (see testutil.Shared), skipping the
// test when it is absent.
func corpusDir(tb testing.TB) string {
	return filepath.Join(testutil.Shared(tb), "corpus")
}

func readSig(tb testing.TB, path string) *interaction.Signature {
	tb.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	f, err := interaction.ParseHSF(path, src)
	if err != nil {
		tb.Fatal(err)
	}
	sig, _, err := f.Signature(path)
	if err != nil {
		tb.Fatal(err)
	}
	return sig
}

// sameSyntax reports whether two files have the same components, ignoring
// positions and whether they were written with braces.
func sameSyntax(a, b *File) bool {
	if len(a.Components) != len(b.Components) {
		return false
	}
	for i, c := range a.Components {
		d := b.Components[i]
		if c.Kind != d.Kind || len(c.Lifelines) != len(d.Lifelines) || len(c.Trace) != len(d.Trace) {
			return false
		}
		for j, n := range c.Lifelines {
			if n.Text != d.Lifelines[j].Text {
				return false
			}
		}
		for j, e := range c.Trace {
			f := d.Trace[j]
			if len(e.Acts) != len(f.Acts) {
				return false
			}
			for k, x := range e.Acts {
				y := f.Acts[k]
				if x.Lifeline.Text != y.Lifeline.Text || x.Kind != y.Kind || x.Msg.Text != y.Msg.Text {
					return false
				}
			}
		}
	}
	return true
}
