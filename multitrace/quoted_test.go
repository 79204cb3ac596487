package multitrace

import (
	"testing"

	"github.com/ivc-project/ivc/interaction"
)

// TestQuotedNames: .htf files write real names quoted; a bare
// name and the same text quoted are one name, and so are an alias and its
// name; Format quotes only where needed.
func TestQuotedNames(t *testing.T) {
	f, err := interaction.ParseHSF("q.hsf", []byte(`@lifeline{gateway = "api-gateway"; "xincan-user"; a}
@message{pets = "GET /owners/{id}"; "say \"hi\"\\"; m}`))
	if err != nil {
		t.Fatal(err)
	}
	sig, _, err := f.Signature("q.hsf")
	if err != nil {
		t.Fatal(err)
	}
	src := `{ [gateway,"a"] gateway!pets."api-gateway"!"GET /owners/{id}".{"a"!m,a?"say \"hi\"\\"};
	["xincan-user"] "xincan-user"?pets }`
	mt, err := resolveBoth(t, src, sig)
	if err != nil {
		t.Fatal(err)
	}
	want := `{
	["api-gateway",a] "api-gateway"!"GET /owners/{id}"."api-gateway"!"GET /owners/{id}".{a?"say \"hi\"\\",a!m};
	["xincan-user"] "xincan-user"?"GET /owners/{id}"
}
`
	if got := string(mt.Format(sig)); got != want {
		t.Errorf("Format\n got %s\nwant %s", got, want)
	}
	back, err := resolveBoth(t, want, sig)
	if err != nil || !back.Equal(mt) {
		t.Errorf("the printed form resolves to another multi-trace (%v)", err)
	}
	formatted, err := FormatSource("q.htf", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	wantSource := `{
	[gateway,a] gateway!pets."api-gateway"!"GET /owners/{id}".{a!m,a?"say \"hi\"\\"};
	["xincan-user"] "xincan-user"?pets
}
`
	if string(formatted) != wantSource {
		t.Errorf("FormatSource\n got %s\nwant %s", formatted, wantSource)
	}
	for _, tc := range []struct{ src, want string }{
		{`{ ["a b"] }`, `t.htf:1:4: undeclared lifeline "a b" (add it to @lifeline in the signature)`},
		{`{ [a] a!"m`, `t.htf:1:9: quoted name not terminated: missing '"'`},
		{`{ [a] a!"m\n" }`, `t.htf:1:11: unknown escape '\n' in a quoted name (only \" and \\ are escapes)`},
		{"{ [a] a!\"\x01\" }", `t.htf:1:10: control character U+0001 in a quoted name`},
		{`{ [a] a!"" }`, `t.htf:1:9: empty quoted name: a name has at least one character`},
		{`{ [a,gateway] "a"!m."xincan-user"!m }`, `t.htf:1:21: "xincan-user"!m is on "xincan-user", outside component [a,gateway]`},
	} {
		if _, err := resolveBoth(t, tc.src, sig); err == nil || err.Error() != tc.want {
			t.Errorf("%s:\n got %v\nwant %s", tc.src, err, tc.want)
		}
	}
}
