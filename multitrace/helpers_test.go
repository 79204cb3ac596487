package multitrace

import (
	"os"
	"testing"

	"github.com/ivc-project/ivc/interaction"
)

// corpusDir returns the HIBOU corpus (../shared/corpus of the project, or
// $IVC_CORPUS), skipping the test when it is absent.
func corpusDir(tb testing.TB) string {
	dir := os.Getenv("IVC_CORPUS")
	if dir == "" {
		dir = "/work/shared/corpus"
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		tb.Skipf("corpus %s absent (set IVC_CORPUS to run this test)", dir)
	}
	return dir
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
