package logs_test

import (
	"io"
	"runtime"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/gen"
	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/multitrace"
)

// TestWriteStreamMemory writes 3,000 sessions (200,000 in the sweeps) in
// every format through WriteStream, the path of ivc gen --log-format, and
// checks that the live heap does not grow with the sessions written (issue
// 25 item 5): from the tenth of them to the last it may grow by a fixed
// bound, far below what holding the sessions or their events would take.
func TestWriteStreamMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 3,000 sessions per format")
	}
	sp, mts, _ := abpTraces(t)
	global := mts[0].Components
	var trace []interaction.MultiAction
	for _, c := range global {
		trace = append(trace, c.Trace[:min(2, len(c.Trace))]...)
	}
	locs := interaction.DiscreteLocations(sp.Sig)
	// By default a leak of more than about 240 B a session exceeds the
	// bound: a session's events, held, take several times that.
	n, mark, bound := 3_000, 300, uint64(640<<10)
	if testutil.Sweep() {
		n, mark, bound = 200_000, 20_000, 4<<20
	}
	heap := func() uint64 {
		var m runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	for _, f := range []logs.Format{logs.JSONL, logs.CSV, logs.OTLP, logs.Jaeger} {
		perFiles := []int{0}
		if f == logs.Jaeger {
			perFiles = append(perFiles, 1000) // traces written at the end of a file too
		}
		for _, perFile := range perFiles {
			var before, after uint64
			seq := func(yield func(*multitrace.MultiTrace, error) bool) {
				for i := range n {
					switch i {
					case mark:
						before = heap()
					case n - 1:
						after = heap()
					}
					mt := gen.Project(trace, locs) // a new multi-trace each session
					if !yield(&mt, nil) {
						return
					}
				}
			}
			files, err := logs.WriteStream(func() (io.Writer, error) { return io.Discard, nil }, f, sp.Sig,
				func(i int) string { return logs.SessionID(f, i, 1) }, seq, 1, perFile)
			if err != nil {
				t.Fatal(err)
			}
			if perFile > 0 && files < n/perFile {
				t.Errorf("%s: %d files of %d events", f, files, perFile)
			}
			if after > before+bound {
				t.Errorf("%s, %d events a file: live heap grew from %d to %d bytes between session %d and %d (bound %d)", f, perFile, before, after, mark, n, bound)
			}
		}
	}
}
