package check_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/internal/hostile"
	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/session"
	"github.com/ivc-project/ivc/spec"
)

// seqSpec is hostile.WriteSeq's seq of n messages along a ring of n
// lifelines: l0 sends to l1, then l1 to l2, ..., then l(n-1) to l0. Its
// NFA is a chain of 2n+1 states, and each of the n lifelines sees two of
// its letters. Its log holds k one-event sessions on different lifelines
// (hostile.SeqAction), some Fail, some WeakPass.
func seqSpec(tb testing.TB, n, k int) (*spec.Spec, string) {
	tb.Helper()
	dir := tb.TempDir()
	if err := hostile.WriteSeq(dir, n, k); err != nil {
		tb.Fatal(err)
	}
	base := hostile.SeqSpec(dir, n)
	sp, err := spec.Load(base+".hsf", base+".hif")
	if err != nil {
		tb.Fatal(err)
	}
	return sp, fmt.Sprintf("%s-%d.jsonl", base, k)
}

// oneEventLog reads the sessions of seqSpec's log: the sessions of a log
// share their partition of the lifelines (one location per lifeline, in
// the signature's order).
func oneEventLog(tb testing.TB, sp *spec.Spec, log string, k int) []session.Session {
	tb.Helper()
	ss, _, err := session.Read(log, logs.JSONL, logs.Options{Sig: sp.Sig}, nil)
	if err != nil || len(ss) != k {
		tb.Fatalf("%d sessions, %v", len(ss), err)
	}
	return ss
}

// oneEventHTF reads k one-event .htf multi-traces: each lists its observed
// lifeline first, then the others, so that each is a partition of its own
// (a checker of the automata engine each).
func oneEventHTF(tb testing.TB, sp *spec.Spec, n, k int) []session.Session {
	tb.Helper()
	var ss []session.Session
	for i := range k {
		act := hostile.SeqAction(i, n)
		name := fmt.Sprintf("s%d.htf", i)
		src := fmt.Sprintf("{\n\t[%s] %s\n}\n", act[:strings.IndexAny(act, "!?")], act)
		mt, err := multitrace.ParseResolve(name, []byte(src), sp.Sig)
		if err != nil {
			tb.Fatal(err)
		}
		ss = append(ss, session.Session{Meta: session.Meta{File: name, HTF: true}, MT: mt})
	}
	return ss
}

// TestAutoManyLifelines checks EngineAuto's size guard: on a seq of 1,000
// lifelines, the automata engine's checker of the partition of 1,000
// locations would take about half a second of CPU to build (and at each
// new partition: every one-event .htf multi-trace on another lifeline),
// where the runtime engine judges a session in microseconds; auto judges
// them with the runtime engine, in bounded time, to the same verdicts. A
// partition within the bound (10 lifelines) is still the automata
// engine's.
func TestAutoManyLifelines(t *testing.T) {
	const sessions = 200
	for _, tc := range []struct {
		n    int
		want check.Engine
	}{
		{1000, check.EngineRuntime},
		{10, check.EngineAutomata},
	} {
		sp, log := seqSpec(t, tc.n, 20)
		checker := func(e check.Engine) *check.Checker {
			opt := check.DefaultOptions()
			opt.Engine = e
			opt.RepairFails = e == check.EngineAuto // the runtime engine's verdicts only
			c, err := check.New(sp, opt)
			if err != nil {
				t.Fatal(err)
			}
			return c
		}
		auto, runtime := checker(check.EngineAuto), checker(check.EngineRuntime)
		if auto.Engine() != check.EngineAutomata {
			t.Fatalf("n=%d: auto compiles to %s, want automata", tc.n, auto.Engine())
		}
		for _, in := range []struct {
			name     string
			sessions []session.Session
		}{
			{"log", oneEventLog(t, sp, log, 20)}, // one partition
			{"htf", oneEventHTF(t, sp, tc.n, sessions)},
		} {
			// Before the guard, the log's one partition took 0.5 s of CPU
			// to build (2-5 s on a loaded machine), and each .htf file's as
			// much; before the fixes that came with it, a WeakPass deep in
			// the seq took up to a second to check, and the runtime engine's
			// first repair of a partition seconds: minutes for all, cut
			// short here. Now about 3 ms of CPU a session (the runtime
			// engine's check, the repair of a Fail, the check of the
			// reference). The budget is of CPU time, which the load of a
			// shared machine inflates less than the time elapsed.
			const budget = 5 * time.Second
			t0, cpu0 := time.Now(), testutil.CPUTime()
			for i, s := range in.sessions {
				if d := testutil.CPUTime() - cpu0; d > budget {
					t.Fatalf("n=%d, %s: %d of %d sessions judged in %v of CPU (%v)", tc.n, in.name, i, len(in.sessions), d, time.Since(t0))
				}
				got := auto.Judge(s)
				if got.Err != nil {
					t.Fatalf("n=%d, %s, session %d: %v", tc.n, in.name, i, got.Err)
				}
				want := runtime.Check(got.MT)
				if got.Engine != tc.want {
					t.Fatalf("n=%d, %s, session %d: judged by the %s engine, want %s", tc.n, in.name, i, got.Engine, tc.want)
				}
				if got.Result.Verdict != want.Verdict {
					t.Errorf("n=%d, %s, session %d (%s): auto says %s, the runtime engine %s", tc.n, in.name, i,
						hostile.SeqAction(i, tc.n), got.Result.Verdict, want.Verdict)
				}
			}
			t.Logf("n=%d, %s: %d sessions judged in %v of CPU (%v)", tc.n, in.name, len(in.sessions), testutil.CPUTime()-cpu0, time.Since(t0))
		}
	}
}
