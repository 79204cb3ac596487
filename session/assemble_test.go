package session_test

import (
	"runtime"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/session"
	"github.com/ivc-project/ivc/spec"
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

// TestAssembleMemory: assembling a small session takes memory in
// proportion to its events, not a chunk of a reading's arena (ivc monitor
// assembles every session it closes on its own).
func TestAssembleMemory(t *testing.T) {
	sig := testSig(t)
	a, err := session.NewAssembler(logs.Options{Sig: sig})
	if err != nil {
		t.Fatal(err)
	}
	var evs []logs.Event
	_, err = logs.Scan("x.jsonl", strings.NewReader(`{"session":"s","action":"a!m"}`+"\n"+`{"session":"s","action":"b?m"}`), logs.JSONL,
		logs.Options{Sig: sig}, func(e logs.Event) { evs = append(evs, e) }, nil)
	if err != nil || len(evs) != 2 {
		t.Fatal(evs, err)
	}
	const runs = 100
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		if s, err := a.Assemble("x.jsonl", "s", evs); err != nil || s.Err != nil {
			t.Fatal(err, s.Err)
		}
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / runs; per > 4<<10 {
		t.Errorf("assembling a session of 2 events allocates %d bytes", per)
	}
}

// shopSessions returns an assembler of the shop's orders, 64 of them, and
// their events by session id.
func shopSessions(tb testing.TB) (*session.Assembler, []string, map[string][]logs.Event) {
	sp, err := spec.Load("../monitor/e2e/testdata/shop.hsf", "../monitor/e2e/testdata/shop.hif")
	if err != nil {
		tb.Fatal(err)
	}
	opt := logs.Options{Sig: sp.Sig}
	r, err := logs.NewTraceReader("otlp", opt, func(err error) { tb.Error(err) })
	if err != nil {
		tb.Fatal(err)
	}
	const orders = 64
	req := testutil.ShopRequest(orders)
	testutil.SetShopTraces(req, 0, 0) // an id for each order
	groups := map[string][]logs.Event{}
	var ids []string
	if _, err := r.Read(req.Traces(), 0, func(ev logs.Event) {
		if _, ok := groups[ev.Session]; !ok {
			ids = append(ids, ev.Session)
		}
		groups[ev.Session] = append(groups[ev.Session], ev)
	}); err != nil {
		tb.Fatal(err)
	}
	if len(ids) != orders {
		tb.Fatalf("%d sessions, want %d", len(ids), orders)
	}
	a, err := session.NewAssembler(opt)
	if err != nil {
		tb.Fatal(err)
	}
	return a, ids, groups
}

// TestAssembleReuseAllocs: a Scratch with Reuse assembles an order of the
// shop (8 spans, paired) without an allocation once it has assembled one.
func TestAssembleReuseAllocs(t *testing.T) {
	a, ids, groups := shopSessions(t)
	sc := session.Scratch{Reuse: true}
	var evs []logs.Event
	i := 0
	assemble := func() {
		id := ids[i%len(ids)]
		i++
		evs = append(evs[:0], groups[id]...)
		if s, err := a.AssembleWith(&sc, "otlp", id, evs); err != nil || s.Err != nil || s.Events != testutil.ShopSpansPerOrder {
			t.Fatal(s.Meta, err, s.Err)
		}
	}
	assemble()
	if n := testing.AllocsPerRun(100, assemble); n > 0 {
		t.Errorf("%.1f allocations a session, want none", n)
	}
}

// BenchmarkAssembleShop assembles the sessions of the monitor's load, the
// orders of the shop (8 spans over 3 services, paired at assembly), each on
// its own as ivc monitor's table assembles those it closes: fresh storage
// for each (Assemble), one Scratch for all (AssembleWith), or one that
// lends each session its storage until the next (Scratch.Reuse).
//
//	go test ./session -run '^$' -bench AssembleShop -benchmem
func BenchmarkAssembleShop(b *testing.B) {
	a, ids, groups := shopSessions(b)
	for _, c := range []struct {
		name    string
		scratch bool
		reuse   bool
	}{{"fresh", false, false}, {"scratch", true, false}, {"reuse", true, true}} {
		b.Run(c.name, func(b *testing.B) {
			sc := session.Scratch{Reuse: c.reuse}
			var evs []logs.Event
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				id := ids[i%len(ids)]
				evs = append(evs[:0], groups[id]...)
				var s session.Session
				var err error
				if c.scratch {
					s, err = a.AssembleWith(&sc, "otlp", id, evs)
				} else {
					s, err = a.Assemble("otlp", id, evs)
				}
				if err != nil || s.Err != nil || s.Events != testutil.ShopSpansPerOrder {
					b.Fatal(s.Meta, err, s.Err)
				}
			}
		})
	}
}
