package automata

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/runtime"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/tracegen"
)

// BenchmarkLongTraces reports the automata engine's throughput, in actions
// per second, on the long ABP and rover traces (corpus/long-traces, prefix
// mode), as HIBOU's global traces (one component) and projected on the
// discrete partition (one component per lifeline: local checks and the
// central search). The checkers are built before the timer starts: a spec
// is compiled once for millions of multi-traces.
func BenchmarkLongTraces(b *testing.B) {
	dir := filepath.Join(testutil.Shared(b), "corpus", "long-traces")
	for _, model := range []string{"abp", "rover"} {
		sp, err := spec.Load(filepath.Join(dir, model+".hsf"), "")
		if err != nil {
			b.Fatal(err)
		}
		e, err := New(sp.Store, sp.Root, Options{Mode: runtime.Prefix})
		if err != nil {
			b.Fatal(err)
		}
		var global, discrete []*multitrace.MultiTrace
		f, err := os.Open(filepath.Join(dir, model+".csv"))
		if err != nil {
			b.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fs := strings.Split(sc.Text(), ";")
			if fs[0] == "name" || fs[1] != "ACP" {
				continue
			}
			mt, err := multitrace.Read(filepath.Join(dir, "tracegen_"+model+"_explo", fs[0]+".htf"), sp.Sig)
			if err != nil {
				b.Fatal(err)
			}
			global = append(global, mt)
			pm := tracegen.Project(mt.Components[0].Trace, tracegen.Discrete(sp.Sig))
			discrete = append(discrete, &pm)
		}
		f.Close()
		for _, set := range []struct {
			name string
			mts  []*multitrace.MultiTrace
		}{{"global", global}, {"discrete", discrete}} {
			b.Run(model+"/"+set.name, func(b *testing.B) {
				for _, mt := range set.mts {
					if v := e.Analyze(mt).Verdict; v != runtime.Pass && v != runtime.WeakPass {
						b.Fatalf("%s on an accepted prefix", v)
					}
				}
				actions := 0
				for b.Loop() {
					for _, mt := range set.mts {
						e.Analyze(mt)
						actions += mt.Len()
					}
				}
				b.ReportMetric(float64(actions)/b.Elapsed().Seconds(), "actions/s")
			})
		}
	}
}
