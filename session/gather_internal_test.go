package session

import (
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/logs"
)

// TestSessionLimit checks the most events one session may hold under
// logs.Options.MaxMemory: its share of the memory
// budget (logs' TestLimitsOfMemory checks the others).
func TestSessionLimit(t *testing.T) {
	for _, c := range []struct {
		mem          int64
		sessionEvent int
	}{
		{0, 0},
		{32 << 20, 8 << 20 / recordBytes},
		{1 << 10, logs.MinHeld / recordBytes},
		{64 << 30, 16 << 30 / recordBytes},
	} {
		sig, err := interaction.NewSignature([]string{"a"}, []string{"m"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		g, err := newGatherer("f", &logs.Options{Sig: sig, MaxMemory: c.mem})
		if err != nil {
			t.Fatal(err)
		}
		if g.maxEvents != c.sessionEvent {
			t.Errorf("MaxMemory %d: session %d events; want %d", c.mem, g.maxEvents, c.sessionEvent)
		}
	}
}
