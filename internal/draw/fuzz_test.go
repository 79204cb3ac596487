package draw

import (
	"testing"

	"github.com/ivc-project/ivc/interaction"
)

// FuzzInteractionSVG draws any interaction over a small signature with
// gates: never a panic, always XML, labels apart, frames nested.
func FuzzInteractionSVG(f *testing.F) {
	f.Add("seq(a -- m -> (b,a,g), <synch>n -> c, g -- m ->|, alt(o, loopW(coreg(a,c)(a -- m -> c, sync(b!n)(b -- n -> a, b -- n ->|)))))")
	f.Add("par(a -- m -> a, strict(m -> b, a -- n -> g))")
	f.Add("loopS(seq(a_lifeline_with_a_long_name -- a_message_with_a_long_name -> (a,b,c), alt(a -- m -> b, o, c -- <synch>n -> (a,b))))")
	sig, err := interaction.NewSignature([]string{"a", "b", "c", "a_lifeline_with_a_long_name"}, []string{"m", "n", "a_message_with_a_long_name"}, []string{"g"})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src string) {
		n, err := interaction.ParseHIF("fuzz.hif", []byte(src))
		if err != nil {
			return
		}
		if _, err := interaction.NewStore(sig).Resolve("fuzz.hif", n); err != nil {
			return
		}
		l := newSeqLayout(sig, n)
		l.draw("fuzz")
		checkLayout(t, src, &l.c)
		checkXML(t, src, l.c.svg("fuzz"))
	})
}
