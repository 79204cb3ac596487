package testutil

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// issueNumber is how an issue of the tracker is named in prose.
var issueNumber = regexp.MustCompile(`(?i)\bissues? #?\d+`)

// TestNoIssueNumbers: the code's comments, test scripts and shell scripts
// say what was asked or what went wrong, not the number of an issue: a
// reader of the code has no issue tracker. (The pages of docs/ and the
// README are checked by cmd/ivc's TestDocs.) Data files kept as they were
// published (testdata/realtraces, testdata/diagrams) are not ours to edit.
func TestNoIssueNumbers(t *testing.T) {
	root := ModuleRoot(t)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			switch {
			case strings.HasPrefix(d.Name(), "."), rel == "testdata/realtraces", rel == "testdata/diagrams":
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go", ".txtar", ".sh":
		default:
			return nil
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for n := 1; sc.Scan(); n++ {
			if m := issueNumber.FindString(sc.Text()); m != "" && !strings.Contains(sc.Text(), "issueNumber") {
				t.Errorf("%s:%d: %q: say what was asked, not the issue's number", rel, n, m)
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
}
