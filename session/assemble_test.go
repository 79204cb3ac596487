package session_test

import (
	"runtime"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/session"
)

// TestAssembleErrors: events Scan cannot have given are refused.
func TestAssembleErrors(t *testing.T) {
	sig := testSig(t)
	a, err := session.NewAssembler(logs.Options{Sig: sig})
	if err != nil {
		t.Fatal(err)
	}
	var evs []logs.Event
	_, err = logs.Scan("x.jsonl", strings.NewReader(`{"session":"s","action":"a!m"}`), logs.JSONL, logs.Options{Sig: sig},
		func(e logs.Event) { evs = append(evs, e) }, nil)
	if err != nil || len(evs) != 1 {
		t.Fatal(evs, err)
	}
	bad := evs[0]
	bad.Action = interaction.MakeAction(7, interaction.Emission, 0)
	for _, c := range []struct {
		id   string
		evs  []logs.Event
		want string
	}{
		{"s", nil, `x.jsonl: session "s" has no events`},
		{"t", evs, `x.jsonl:1: an event of session "s" among those of "t"`},
		{"s", []logs.Event{bad}, `x.jsonl:1: event 0 of session "s": action 458752 is not in the signature`},
	} {
		if _, err := a.Assemble("x.jsonl", c.id, c.evs); err == nil || err.Error() != c.want {
			t.Errorf("%v: %v, want %s", c.evs, err, c.want)
		}
	}
	if _, err := session.NewAssembler(logs.Options{Sig: sig, Locations: []interaction.Lifelines{interaction.LifelinesOf(0), interaction.LifelinesOf(0, 1)}}); err == nil {
		t.Error("overlapping locations accepted")
	}
}

// TestAssembleBytes: a session assembled alone takes storage for its own
// events, not a share of a gatherer's arena sized for thousands (ivc
// monitor assembles each session as it closes).
func TestAssembleBytes(t *testing.T) {
	sig := testSig(t)
	a, err := session.NewAssembler(logs.Options{Sig: sig})
	if err != nil {
		t.Fatal(err)
	}
	var evs []logs.Event
	_, err = logs.Scan("x.jsonl", strings.NewReader(strings.Repeat(`{"session":"s","action":"a!m"}`+"\n", 8)), logs.JSONL,
		logs.Options{Sig: sig}, func(e logs.Event) { evs = append(evs, e) }, nil)
	if err != nil || len(evs) != 8 {
		t.Fatal(evs, err)
	}
	const runs = 100
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		if _, err := a.Assemble("x.jsonl", "s", evs); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	per := (after.TotalAlloc - before.TotalAlloc) / runs
	t.Logf("%d bytes to assemble a session of %d events", per, len(evs))
	if per > 16<<10 {
		t.Errorf("%d bytes allocated to assemble a session of %d events", per, len(evs))
	}
}
