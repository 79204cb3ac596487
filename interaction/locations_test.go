package interaction

import "testing"

func TestParseLocations(t *testing.T) {
	sig, err := NewSignature([]string{"l1", "l2", "l3", "l4"}, []string{"m"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ text, want string }{
		{"discrete", "l1;l2;l3;l4"},
		{"trivial", "l1,l2,l3,l4"},
		{"l1,l2;l3", "l1,l2;l3;l4"},
		{" l3 , l1 ; l4 ", "l1,l3;l4;l2"},
		{"{(l1,l2),(l3)}", "l1,l2;l3;l4"},
		{"{ (l4) }", "l4;l1;l2;l3"},
		{"", "l1;l2;l3;l4"},
		{"l1,l5", "error"},
		{"l1;l1", "error"},
		{"l1;;l2", "error"},
		{"{(l1),}", "error"},
		{"{(l1)(l2)}", "error"},
		{"{(l1", "error"},
	}
	for _, tc := range tests {
		p, err := ParseLocations(sig, tc.text)
		got := "error"
		if err == nil {
			got = p.Format(sig)
		}
		if got != tc.want {
			t.Errorf("ParseLocations(%q) = %s (%v), want %s", tc.text, got, err, tc.want)
		}
	}
	// Real names: quoted as in a .htf, aliases too; Format
	// writes what ParseLocations reads.
	f, err := ParseHSF("q.hsf", []byte(`@lifeline{gw = "api;gateway"; "a,b"; "say \"hi\""; c}`))
	if err != nil {
		t.Fatal(err)
	}
	q, _, err := f.Signature("q.hsf")
	if err != nil {
		t.Fatal(err)
	}
	for text, want := range map[string]string{
		`gw,"a,b";"say \"hi\""`:          `"api;gateway","a,b";"say \"hi\"";c`,
		`"api;gateway" ; c,"say \"hi\""`: `"api;gateway";"say \"hi\"",c;"a,b"`,
		`"a,b"x`:                         "error",
		`"a,b`:                           "error",
	} {
		p, err := ParseLocations(q, text)
		got := "error"
		if err == nil {
			got = p.Format(q)
			if back, err := ParseLocations(q, got); err != nil || back.Format(q) != got {
				t.Errorf("%s reads back as %v (%v)", got, back, err)
			}
		}
		if got != want {
			t.Errorf("ParseLocations(%s) = %s (%v), want %s", text, got, err, want)
		}
	}
}

// FuzzParseLocations: ParseLocations never panics, and what it returns is
// a partition of the lifelines that its Format reads back to itself.
func FuzzParseLocations(f *testing.F) {
	for _, s := range []string{"discrete", "trivial", "a,b;c", " c , a ; d ", "{(a,b),(c)}", "{ (d) }", `"a","b";c`, `"a`, "", "a;;b", "{(a),}", "a,e"} {
		f.Add(s)
	}
	sig, err := NewSignature([]string{"a", "b", "c", "d"}, []string{"m"}, nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		p, err := ParseLocations(sig, text)
		if err != nil {
			return
		}
		var all Lifelines
		for _, g := range p {
			if g.IsEmpty() || g.Meets(all) {
				t.Fatalf("%q: %s is no partition", text, p.Format(sig))
			}
			all = all.Union(g)
		}
		if all != sig.AllLifelines() {
			t.Fatalf("%q: %s misses lifelines", text, p.Format(sig))
		}
		back, err := ParseLocations(sig, p.Format(sig))
		if err != nil || back.Format(sig) != p.Format(sig) {
			t.Fatalf("%q: %s reads back as %v (%v)", text, p.Format(sig), back, err)
		}
	})
}
