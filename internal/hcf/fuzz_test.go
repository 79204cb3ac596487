package hcf

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/internal/scan"
	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/syntax"
)

// FuzzParse requires that no input panics or hangs, that errors are
// positioned *syntax.Error values, and that whatever parses survives
// Format and Parse unchanged. Every '@' is also tried as the start of an
// embedded section, as in a legacy .hsf.
func FuzzParse(f *testing.F) {
	err := filepath.WalkDir("testdata", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if ext := filepath.Ext(path); ext == ".hcf" || ext == ".hsf" {
			src, err := os.ReadFile(path)
			f.Add(src)
			return err
		}
		return nil
	})
	if err != nil {
		f.Fatal(err)
	}
	for _, tc := range spellings {
		f.Add([]byte(tc.source()))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := Parse("fuzz.hcf", src)
		if err != nil {
			if _, ok := err.(*syntax.Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
		} else {
			checkRoundTrip(t, "fuzz.hcf", file)
		}
		s := scan.New("fuzz.hsf", src)
		for tok := s.Next(); tok.Kind != scan.EOF; tok = s.Next() {
			if !tok.Is("@") {
				continue
			}
			sec, err := ParseSection("fuzz.hsf", src, tok.Pos)
			if err != nil {
				if !strings.HasPrefix(err.Error(), "fuzz.hsf:") {
					t.Fatalf("error without position: %v", err)
				}
				continue
			}
			if sec.End.Offset <= tok.Pos.Offset || sec.End.Offset > len(src) || src[sec.End.Offset-1] != '}' {
				t.Fatalf("section at %v ends at %v", tok.Pos, sec.End)
			}
			checkRoundTrip(t, "fuzz.hsf", &File{Sections: []*Section{sec}})
		}
	})
}

// FuzzParseWholeInput: a .hcf that parses was consumed whole (see
// testutil.WholeInput).
func FuzzParseWholeInput(f *testing.F) {
	for _, tc := range spellings {
		f.Add([]byte(tc.source()))
	}
	for _, s := range []string{"", "/* none */", "@analyze_option{ goal = Pass }", "@analyze\x00_option{}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		testutil.WholeInput(t, src, func(src []byte) error {
			_, err := Parse("fuzz.hcf", src)
			return err
		}, testutil.ScannerTrailers)
	})
}
