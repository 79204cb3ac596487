package session

import (
	"math/rand/v2"
	"slices"
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

// TestPermute: records.permute puts records across several chunks in the
// order of a permutation, random or of long cycles, and leaves it the
// identity.
func TestPermute(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := 3*recordChunk + 17
	for _, how := range []string{"random", "one cycle", "identity"} {
		var rs records
		for i := range n {
			rs.add(record{hi: int64(i), line: uint32(i)})
		}
		to := make([]int32, n)
		for i := range to {
			to[i] = int32(i)
		}
		switch how {
		case "random":
			rng.Shuffle(n, func(i, j int) { to[i], to[j] = to[j], to[i] })
		case "one cycle":
			for i := range to {
				to[i] = int32((i + recordChunk + 1) % n)
			}
		}
		want := slices.Clone(to)
		rs.permute(to)
		for i := range n {
			if r := rs.at(int32(i)); r.hi != int64(want[i]) || r.line != uint32(want[i]) || to[i] != int32(i) {
				t.Fatalf("%s: record %d is %d (line %d), want %d; to[%d] = %d", how, i, r.hi, r.line, want[i], i, to[i])
			}
		}
	}
}
