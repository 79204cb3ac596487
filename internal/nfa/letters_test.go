package nfa

import (
	"strings"
	"testing"
)

func TestParseAlphabets(t *testing.T) {
	a, _ := paperNFA(t)
	for _, tc := range []struct{ spec, want string }{
		{"a,e;c,d;b", "L1={a,e} L2={c,d} L3={b}"},
		{" p = a , e ; q=c,d;r=b ", "p={a,e} q={c,d} r={b}"},
		{"discrete", "a={a} b={b} c={c} d={d} e={e}"},
		{"", "a={a} b={b} c={c} d={d} e={e}"},
		{" trivial ", "L1={a,b,c,d,e}"},
		// An empty group or letter is an error, as compile's locations of
		// lifelines: it once made a location with no letter.
		{"a,e;;c,d;b", `locations "a,e;;c,d;b": empty letter or location (group 2)`},
		{"a,e;c,d;b;", `locations "a,e;c,d;b;": empty letter or location (group 4)`},
		{"a,,e;c,d;b", `locations "a,,e;c,d;b": empty letter or location (group 1)`},
		{"p=;a,e;c,d;b", `locations "p=;a,e;c,d;b": empty letter or location (group 1)`},
		{"=a,e;c,d;b", `locations "=a,e;c,d;b": empty name before '=' in group 1`},
		{"a,e;c,d", `letter "b" is in no location`},
		{"a,e;c,d;b,a", `letter "a" is in locations L1 and L3`},
		{"a,e;c,d;b,z", `location L3: "z" is no letter of the automaton`},
	} {
		locs, err := ParseAlphabets(a.Symbols(), tc.spec)
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			got = locs.String()
		}
		if got != tc.want {
			t.Errorf("ParseAlphabets(%q) = %s, want %s", tc.spec, got, tc.want)
		}
	}
}

// TestAlphabetsAreNotEmpty: no spelling makes a location without letters.
func TestAlphabetsAreNotEmpty(t *testing.T) {
	a, _ := paperNFA(t)
	for _, spec := range []string{";a,e;c,d;b", "a,e; ;c,d;b", "a,e;c,d;b; "} {
		if locs, err := ParseAlphabets(a.Symbols(), spec); err == nil {
			t.Errorf("ParseAlphabets(%q) = %s, want an error", spec, locs)
		} else if !strings.Contains(err.Error(), "empty letter or location") {
			t.Errorf("ParseAlphabets(%q): %v", spec, err)
		}
	}
}
