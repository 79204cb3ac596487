package hcf_test

import (
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/hcf"
)

// TestPartitionLocations: HIBOU's partition=... names the same locations
// as the --locations flags.
func TestPartitionLocations(t *testing.T) {
	sig, err := interaction.NewSignature([]string{"l1", "l2", "l3"}, []string{"m"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ src, want string }{
		{"partition=discrete", "l1;l2;l3"},
		{"partition=trivial", "l1,l2,l3"},
		{"partition={(l3,l1)}", "l1,l3;l2"},
		{"partition={(l1),(l4)}", "error"},
		{`partition={("l2"),(l3)}`, "l2;l3;l1"},
	} {
		f, err := hcf.Parse("t.hcf", []byte("@explore_option{ loggers = [tracegen["+tc.src+"]] }"))
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		p, err := interaction.ParseLocations(sig, f.Section(hcf.Explore).Options.Loggers[0].TraceGen.Partition.Locations())
		got := "error"
		if err == nil {
			got = p.Format(sig)
		}
		if got != tc.want {
			t.Errorf("%s: got %s (%v), want %s", tc.src, got, err, tc.want)
		}
	}
}
