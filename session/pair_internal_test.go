package session

import (
	"strings"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/logs"
)

// TestSpansCapped: the spans held for pairing count toward the most events
// one session may hold, as add's events do.
func TestSpansCapped(t *testing.T) {
	sig, err := interaction.NewSignature([]string{"a"}, []string{"m"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	g, err := newGatherer("f.json", &logs.Options{Sig: sig})
	if err != nil {
		t.Fatal(err)
	}
	g.across, g.maxEvents = true, 3
	act := interaction.MakeAction(0, interaction.Emission, 0)
	for i := range 4 {
		err := g.AddSpan([]byte("t1"), i+1, i, act, logs.Key{Kind: logs.KeyTime, Lo: uint32(i + 1)}, uint64(i+1), &logs.SpanLink{Span: uint64(i + 1), Kind: logs.SpanClient, OwnOK: true})
		if (err != nil) != (i == 3) || err != nil && !strings.Contains(err.Error(), "f.json:4: session \"t1\" holds more than 3 events") {
			t.Errorf("span %d: %v", i+1, err)
		}
	}
	if s := g.build(0, &arena{}); s.Dropped != 1 || s.Events != 3 {
		t.Errorf("session: %d events, %d dropped", s.Events, s.Dropped)
	}
}
