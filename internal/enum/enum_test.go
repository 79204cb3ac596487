package enum

import "testing"

type mode uint8

const (
	prefix mode = iota
	accept
	slice
	unnamed // in no table
	last
)

func TestNames(t *testing.T) {
	names := New("mode", map[mode]string{accept: "accept", prefix: "prefix", slice: "", last: "last"})
	for e, want := range map[mode]string{prefix: "prefix", accept: "accept", slice: "", unnamed: "mode(3)", last: "last", 200: "mode(200)"} {
		if got := names.Name(e); got != want {
			t.Errorf("Name(%d) = %q, want %q", e, got, want)
		}
	}
	for s, want := range map[string]mode{"prefix": prefix, "accept": accept, "last": last} {
		if got, ok := names.Value(s); !ok || got != want {
			t.Errorf("Value(%q) = %d, %v, want %d", s, got, ok, want)
		}
	}
	for _, s := range []string{"", "slice", "mode(3)", "Prefix"} {
		if got, ok := names.Value(s); ok {
			t.Errorf("Value(%q) = %d, want none", s, got)
		}
	}
}
