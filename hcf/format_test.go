package hcf

import (
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// Format's output for a file using every option, pinned in a golden file.
func TestFormatGolden(t *testing.T) {
	f := parseFile(t, "testdata/all_options.hcf")
	got := Format(f)
	const golden = "testdata/all_options.golden"
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("Format differs from %s (go test -update rewrites it):\n%s", golden, got)
	}
	// The golden text is canonical: it formats to itself.
	if again := Format(parseFile(t, golden)); string(again) != string(want) {
		t.Errorf("%s is not a fixed point of Format:\n%s", golden, again)
	}
}
