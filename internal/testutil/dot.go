package testutil

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// RenderDOT checks that Graphviz renders each graph (dot -Tsvg) without a
// complaint. Without the dot binary it says so in the log and checks nothing
// (CI installs Graphviz, so the check runs there).
func RenderDOT(t testing.TB, graphs ...string) {
	t.Helper()
	bin, err := exec.LookPath("dot")
	if err != nil {
		t.Log("Graphviz dot not installed: DOT output not rendered")
		return
	}
	dir := t.TempDir()
	files := make([]string, len(graphs))
	for i, g := range graphs {
		files[i] = filepath.Join(dir, fmt.Sprintf("g%03d.dot", i))
		if err := os.WriteFile(files[i], []byte(g), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	render := func(files ...string) (string, bool) {
		var stderr bytes.Buffer
		cmd := exec.Command(bin, append([]string{"-Tsvg", "-O"}, files...)...)
		cmd.Stderr = &stderr
		err := cmd.Run()
		return fmt.Sprintf("%v %s", err, stderr.String()), err == nil && stderr.Len() == 0
	}
	// One process renders them all (Graphviz starts in about 50 ms); when
	// it complains, one process a graph says which.
	if len(files) == 0 {
		return
	}
	if _, ok := render(files...); ok {
		return
	}
	for i, f := range files {
		if msg, ok := render(f); !ok {
			t.Errorf("dot -Tsvg: %s\n%s", msg, graphs[i])
		}
	}
}
