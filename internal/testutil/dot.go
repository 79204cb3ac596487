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
	for i, g := range graphs {
		file := filepath.Join(dir, fmt.Sprintf("g%03d.dot", i))
		if err := os.WriteFile(file, []byte(g), 0o644); err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		cmd := exec.Command(bin, "-Tsvg", "-o", file+".svg", file)
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil || stderr.Len() > 0 {
			t.Errorf("dot -Tsvg: %v %s\n%s", err, stderr.String(), g)
		}
	}
}
