// Command benchtable runs the benchmarks behind the performance table of
// SPEC §8 and prints the table, with the peers' recorded figures and the
// ratios, in Markdown:
//
//	go run ./internal/cmd/benchtable            # every row (a few minutes)
//	go run ./internal/cmd/benchtable -rows lfrem,sat
//	go run ./internal/cmd/benchtable -rows command # ivc analyze, a process of its own, on a log
//	go run ./internal/cmd/benchtable -rows join10m # the 10M-event join run (minutes; not in the default)
//	go run ./internal/cmd/benchtable -rows peers   # ivc monitor beside the Collector (minutes; not in the default)
//	go run ./internal/cmd/benchtable -table1    # the automata paper's Table 1, set by set
//	go run ./internal/cmd/benchtable -hibou     # ivc beside HIBOU 0.8.7 on corpus/lfrem
//
// It needs the shared corpus beside the module (../shared), as the
// benchmarks do. Each row runs `go test -bench` on one package and reads the
// metrics the benchmark reports.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
)

// A result is one benchmark line: its name (without "Benchmark" and the
// -GOMAXPROCS suffix) and its metrics by unit.
type result struct {
	pkg     string // the last element of the package's path
	name    string
	metrics map[string]float64
}

var lineRE = regexp.MustCompile(`^Benchmark(\S+?)(-\d+)?\s+\d+\s+(.*)$`)

func bench(pkg, pattern, benchtime string) ([]result, error) {
	return goTest(nil, pkg, "-run", "^$", "-bench", pattern, "-benchtime", benchtime)
}

// goTest runs go test with args and env and reads the benchmark lines of its
// output (also those a test logs, indented).
func goTest(env []string, pkg string, args ...string) ([]result, error) {
	return goTestIn("", env, pkg, args...)
}

// goTestIn is goTest in the directory dir ("": the current one), e.g. a
// nested module's.
func goTestIn(dir string, env []string, pkg string, args ...string) ([]result, error) {
	cmd := exec.Command("go", append([]string{"test", pkg}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go test %s %s: %v\n%s", pkg, strings.Join(args, " "), err, out)
	}
	var rs []result
	pkgName := ""
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if p, ok := strings.CutPrefix(line, "pkg: "); ok {
			pkgName = p[strings.LastIndex(p, "/")+1:]
			continue
		}
		m := lineRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		r := result{pkg: pkgName, name: m[1], metrics: map[string]float64{}}
		f := strings.Fields(m[3])
		for i := 0; i+1 < len(f); i += 2 {
			if v, err := strconv.ParseFloat(f[i], 64); err == nil {
				r.metrics[f[i+1]] = v
			}
		}
		rs = append(rs, r)
	}
	return rs, nil
}

// A row of the table.
type row struct {
	workload, peer, ivc, ratio string
}

type producer struct {
	key string
	run func() ([]row, error)
}

func dur(us float64) string {
	switch {
	case us >= 1e6:
		return fmt.Sprintf("%.2f s", us/1e6)
	case us >= 1e3:
		return fmt.Sprintf("%.2f ms", us/1e3)
	default:
		return fmt.Sprintf("%.1f µs", us)
	}
}

func rate(v float64) string {
	switch {
	case v >= 1e9:
		return fmt.Sprintf("%.2fG", v/1e9)
	case v >= 1e6:
		return fmt.Sprintf("%.1fM", v/1e6)
	case v >= 1e3:
		return fmt.Sprintf("%.0fk", v/1e3)
	}
	return fmt.Sprintf("%.0f", v)
}

// perCPU is a result's events per CPU-second of its loop (its
// cpu-ns/event), or its events/s when it reports no CPU time.
func perCPU(r result) float64 {
	if ns := r.metrics["cpu-ns/event"]; ns > 0 {
		return 1e9 / ns
	}
	return r.metrics["events/s"]
}

func times(x float64) string { return fmt.Sprintf("%.0f×", x) }

var producers = []producer{
	{"lfrem", func() ([]row, error) {
		rs, err := bench("./internal/engine/rewrite", `Lfrem/por\+loc$`, "1x")
		if err != nil || len(rs) == 0 {
			return nil, err
		}
		m := rs[0].metrics
		return []row{{
			"lifeline-removal corpus (10,000 multi-traces), prefix mode, POR+LOC, per multi-trace (cold memo)",
			"HIBOU median ≈ 75 µs, max ≈ 2.4 s",
			fmt.Sprintf("median %s, p99 %s, max %s", dur(m["median-µs"]), dur(m["p99-µs"]), dur(m["max-µs"])),
			times(75/m["median-µs"]) + " (median)",
		}}, nil
	}},
	{"long", func() ([]row, error) {
		rs, err := bench("./internal/engine/rewrite", `LongTraces`, "3x")
		if err != nil {
			return nil, err
		}
		var out []row
		for _, r := range rs {
			v := r.metrics["actions/s"]
			out = append(out, row{"long traces, runtime engine: " + strings.TrimPrefix(r.name, "LongTraces/"),
				"HIBOU 25k–110k actions/s", rate(v) + " actions/s", times(v / 110e3)})
		}
		return out, nil
	}},
	{"compiled", func() ([]row, error) {
		rs, err := bench("./internal/engine/automata", `LongTraces`, "5x")
		if err != nil {
			return nil, err
		}
		var out []row
		for _, r := range rs {
			v := r.metrics["actions/s"]
			out = append(out, row{"long traces, automata engine (in-process): " + strings.TrimPrefix(r.name, "LongTraces/"),
				"HIBOU 25k–110k actions/s", rate(v) + " actions/s", times(v / 110e3)})
		}
		return out, nil
	}},
	{"large", func() ([]row, error) {
		// A large search (par of 20 arrows, a Fail, no POR or local
		// analyses) to 100k, 1M, 3M and 10M vertices: vertices per CPU-second must
		// not fall as the search grows.
		// Beside each, the growth of the memory alone (MemoryFloor: a
		// hash table of as many vertices, the same bytes a vertex).
		rs, err := bench("./internal/engine/rewrite", `LargeSearch`, "1x")
		if err != nil || len(rs) < 2 {
			return nil, err
		}
		floor, err := bench("./internal/engine/rewrite", `MemoryFloor`, "1x")
		if err != nil || len(floor) != len(rs) {
			return nil, fmt.Errorf("MemoryFloor: %d rows for %d (%v)", len(floor), len(rs), err)
		}
		var out []row
		for i, r := range rs {
			size := strings.TrimPrefix(r.name, "LargeSearch/")
			if f := strings.TrimPrefix(floor[i].name, "MemoryFloor/"); f != size {
				return nil, fmt.Errorf("MemoryFloor's row %s beside LargeSearch's %s", f, size)
			}
			growth := func(rs []result) float64 { return rs[i].metrics["vertices/cpu-s"] / rs[0].metrics["vertices/cpu-s"] }
			out = append(out, row{"large search, runtime engine, par of 20 arrows (a Fail), no POR or local analyses, " + size,
				fmt.Sprintf("the search at 100k vertices; a hash table of the vertices alone %.2f×", growth(floor)),
				fmt.Sprintf("%s vertices/CPU-s (%s vertices/s)", rate(r.metrics["vertices/cpu-s"]), rate(r.metrics["vertices/s"])),
				fmt.Sprintf("%.2f× (growth; target ≥ 1×)", growth(rs))})
		}
		return out, nil
	}},
	{"sat", func() ([]row, error) {
		rs, err := bench("./internal/engine/rewrite", `SAT`, "1x")
		if err != nil || len(rs) == 0 {
			return nil, err
		}
		ms := rs[0].metrics["median-ms"]
		return []row{{"3-SAT reduction (100 uf20 instances), median per instance",
			"HIBOU 230 ms; a SAT solver 18 ms", dur(ms * 1e3), times(230/ms) + " vs HIBOU, " + fmt.Sprintf("%.1f×", 18/ms) + " vs the solver"}}, nil
	}},
	{"slices", func() ([]row, error) {
		rs, err := bench("./internal/engine/rewrite", `Slices`, "3x")
		if err != nil {
			return nil, err
		}
		peer := map[string]float64{"slice-i1": 1300, "slice-i2": 6900}
		var out []row
		for _, model := range []string{"slice-i1", "slice-i2"} {
			var med, mx float64
			for _, r := range rs {
				if strings.HasPrefix(r.name, "Slices/"+model+"/") {
					med = max(med, r.metrics["median-µs"])
					mx = max(mx, r.metrics["max-µs"])
				}
			}
			out = append(out, row{"slices of " + model + " (slice mode), worst median over length classes",
				fmt.Sprintf("HIBOU median %s (max of i2: 14.6 s)", dur(peer[model])),
				fmt.Sprintf("median ≤ %s, max %s", dur(med), dur(mx)), times(peer[model] / med)})
		}
		return out, nil
	}},
	{"nfa", func() ([]row, error) {
		rs, err := bench("./internal/synth", `Synthesis/(abp|hr|sensor|platoon[2-5]|doors|maze)$`, "200x")
		if err != nil {
			return nil, err
		}
		var out []row
		for _, r := range rs {
			m := r.metrics
			out = append(out, row{"NFA synthesis: " + strings.TrimPrefix(r.name, "Synthesis/"),
				fmt.Sprintf("HIBOU %.0f states", m["hibou-states"]),
				fmt.Sprintf("%.0f states in %s", m["states"], dur(m["ns/op"]/1e3)), times(m["speedup"])})
		}
		return out, nil
	}},
	{"table1", func() ([]row, error) {
		rs, err := bench("./internal/nfa", `Table1`, "3x")
		if err != nil {
			return nil, err
		}
		var as []float64
		sec := map[string]float64{}
		for _, r := range rs {
			sec[r.name] = r.metrics["s/set"]
			if strings.HasSuffix(r.name, "/AS") {
				as = append(as, r.metrics["×paper"])
			}
		}
		slower := 0
		for name, s := range sec {
			if strings.HasSuffix(name, "/AS") && s > sec[strings.TrimSuffix(name, "AS")+"AC"] {
				slower++
			}
		}
		slices.Sort(as)
		return []row{{fmt.Sprintf("automata paper Table 1 (%d sets, AS), speed-up over the paper's better of AC/AS", len(as)),
			"paper (i7-13800H): 0.00017–50 s per set",
			fmt.Sprintf("min %.1f×, median %.0f×; AS slower than AC on %d set(s)", as[0], as[len(as)/2], slower),
			fmt.Sprintf("%.1f× (min)", as[0])}}, nil
	}},
	{"local", func() ([]row, error) {
		rs, err := bench("./internal/nfa", `LocalCheck`, "50x")
		if err != nil {
			return nil, err
		}
		lo := 0.0
		for _, r := range rs {
			if v := r.metrics["events/s"]; lo == 0 || v < lo {
				lo = v
			}
		}
		return []row{{"local checks on projection DFAs (in-process, automatark NFA1–4)", "target 200M events/s",
			"≥ " + rate(lo) + " events/s", times(lo/200e6) + " the target"}}, nil
	}},
	{"logs", func() ([]row, error) {
		// Logs to verdicts on one core: reading the sessions and judging
		// them, beside the peer measured in the same run: a bare scan of
		// the same JSON Lines files, a pass of it before each of ivc's
		// (check's BenchmarkLogs, bare-cpu-ns/event: the host's speed
		// swings from minute to minute; its own passes, jsonl-bare, are
		// the peer of the OTLP rows).
		// Rates are per CPU-second of the benchmark's loop (cpu-ns/event),
		// which a loaded machine inflates less than the time elapsed; 30
		// passes each, as a pass's cost swings with the memory it lands in
		// (fresh memory costs page faults: 10 passes of a JSON Lines row
		// gave 0.31x and 0.42x the bare scan in two runs of one hour).
		rs, err := goTest(nil, "./check", "-run", "^$", "-bench", "Logs", "-cpu", "1", "-benchtime", "30x")
		if err != nil {
			return nil, err
		}
		v, besideBare := map[string]float64{}, map[string]float64{}
		for _, r := range rs {
			v[r.name] = perCPU(r)
			besideBare[r.name] = r.metrics["bare-cpu-ns/event"]
		}
		var out []row
		for _, c := range []struct{ name, sessions string }{
			// See check's BenchmarkLogs: distinct sessions, or the few
			// sessions of lfrem's interactions repeated.
			{"distinct-i0", "10,000 distinct sessions of the slice paper's i0 (runtime engine"},
			{"repeated-i1", "20,000 lfrem-like sessions, 9 distinct (runtime engine"},
			{"repeated-i14", "20,000 lfrem-like sessions (automata engine"},
		} {
			at := func(pass string) float64 { return v["Logs/"+c.name+"/"+pass] }
			perSession := 0.0
			for _, r := range rs {
				if r.name == "Logs/"+c.name+"/jsonl" {
					perSession = r.metrics["events/session"]
				}
			}
			for _, p := range []struct{ pass, label string }{{"jsonl", "JSON Lines log"}, {"jsonl-joined", "joined JSON Lines (one log per location)"}} {
				bare, ivc := at(p.pass+"-bare"), at(p.pass)
				if ns := besideBare["Logs/"+c.name+"/"+p.pass]; ns > 0 {
					bare = 1e9 / ns // the peer's passes alternated with ivc's
				}
				out = append(out, row{fmt.Sprintf("%s → verdicts, one core, %s, %.1f events a session)", p.label, c.sessions, perSession),
					"bare scan of the same files " + rate(bare) + " events/s; target 0.5×", rate(ivc) + " events/s",
					fmt.Sprintf("%.2f× the bare scan", ivc/bare)})
			}
			for _, p := range []struct{ pass, label string }{{"otlp", "OTLP/JSON traces"}, {"otlp-joined", "joined OTLP/JSON (one log per location)"},
				{"otlp-proto", "OTLP/protobuf traces"}, {"otlp-proto-joined", "joined OTLP/protobuf (one log per location)"}} {
				target := 1e6
				if strings.HasPrefix(p.pass, "otlp-proto") {
					target = 2e6
				}
				ivc := at(p.pass)
				out = append(out, row{fmt.Sprintf("%s → verdicts, one core, %s)", p.label, c.sessions),
					fmt.Sprintf("target %s spans/s; bare scan of the JSON Lines %s events/s", rate(target), rate(at("jsonl-bare"))), rate(ivc) + " spans/s",
					fmt.Sprintf("%.2f× the target", ivc/target)})
			}
		}
		return out, nil
	}},
	{"command", func() ([]row, error) {
		// ivc analyze as users run it, a process of its own (cmd/ivc's
		// BenchmarkCommand): what the logs rows' passes in one process do
		// not see (start, setup, output, fresh memory, the workers'
		// hand-over), beside the bare scan of the same file.
		rs, err := bench("./cmd/ivc", "Command", "3x")
		if err != nil {
			return nil, err
		}
		v := map[string]result{}
		for _, r := range rs {
			v[r.name] = r
		}
		bare, ok := v["Command/bare"]
		if !ok {
			return nil, fmt.Errorf("BenchmarkCommand: no bare scan among %d rows", len(rs))
		}
		var out []row
		for _, jobs := range []string{"1", "default"} {
			r, ok := v["Command/analyze/jobs="+jobs]
			if !ok {
				return nil, fmt.Errorf("BenchmarkCommand: no row of --jobs %s", jobs)
			}
			out = append(out, row{"ivc analyze, a process of its own, results to a file, on a JSON Lines log of 100,000 lfrem-like sessions (i1, 706k events), --jobs " + jobs,
				"bare scan of the same file " + rate(perCPU(bare)) + " events/s",
				fmt.Sprintf("%s events per CPU-second (%s events/s)", rate(perCPU(r)), rate(r.metrics["events/s"])),
				fmt.Sprintf("%.2f× the bare scan", perCPU(r)/perCPU(bare))})
		}
		return out, nil
	}},
	{"repair", func() ([]row, error) {
		// The repair of a Fail beside its check (check's BenchmarkRepair:
		// lfrem's failing noise mutants, the engine auto chooses).
		rs, err := goTest(nil, "./check", "-run", "^$", "-bench", "Repair/all$", "-benchtime", "5x")
		if err != nil || len(rs) == 0 {
			return nil, err
		}
		m := rs[0].metrics
		return []row{{"repair of a Fail (lfrem's 1,784 failing noise mutants, prefix mode, engine auto), per multi-trace",
			"target: at most 10× its check (median)", fmt.Sprintf("median check %s, repair %s", dur(m["check-µs"]), dur(m["repair-µs"])),
			fmt.Sprintf("%.1f× its check (median)", m["ratio"])}}, nil
	}},
	{"join", func() ([]row, error) {
		// Sessions joined across one log per location, beside
		// the per-file path on the same sessions: check's BenchmarkJoin
		// (2,000 distinct ABP sessions; in memory and spilling) and the
		// joined rows of BenchmarkLogs (the lfrem-like sessions of the 2M
		// events/s target).
		rs, err := goTest(nil, "./check", "-run", "^$", "-bench", "Join", "-cpu", "1", "-benchtime", "30x")
		if err != nil {
			return nil, err
		}
		logs, err := goTest(nil, "./check", "-run", "^$", "-bench", "Logs/repeated-i14", "-cpu", "1", "-benchtime", "30x")
		if err != nil {
			return nil, err
		}
		rs = append(rs, logs...)
		v := map[string]float64{}
		for _, r := range rs {
			v[r.name] = perCPU(r)
		}
		var out []row
		for _, f := range []struct{ name, label, unit string }{{"jsonl", "JSON Lines", "events/s"}, {"otlp", "OTLP/JSON", "spans/s"}} {
			file, joined, spilled := v["Join/"+f.name+"/file"], v["Join/"+f.name+"/joined"], v["Join/"+f.name+"/spilled"]
			peer, ratio := fmt.Sprintf("per-file path, same sessions: %s %s", rate(file), f.unit), fmt.Sprintf("%.2f× the per-file path", joined/file)
			if bare := v["Join/"+f.name+"/joined-bare"]; bare > 0 {
				peer += fmt.Sprintf("; bare scan of the same files %s events/s", rate(bare))
				ratio += fmt.Sprintf(", %.2f× the bare scan", joined/bare)
			}
			out = append(out,
				row{fmt.Sprintf("joined %s (one log per location) → verdicts, one core, 2,000 distinct ABP sessions (automata engine)", f.label),
					peer, rate(joined) + " " + f.unit, ratio},
				row{fmt.Sprintf("joined %s, spilling to disk (budget 1/16 of the events), same sessions", f.label),
					fmt.Sprintf("joined in memory: %s %s", rate(joined), f.unit), rate(spilled) + " " + f.unit,
					fmt.Sprintf("%.2f× in memory (target ≥ 0.6×)", spilled/joined)})
			file, joined = v["Logs/repeated-i14/"+f.name], v["Logs/repeated-i14/"+f.name+"-joined"]
			target := map[string]float64{"jsonl": 2e6, "otlp": 1e6}[f.name]
			peer, ratio = fmt.Sprintf("target %s %s; per-file path %s", rate(target), f.unit, rate(file)), fmt.Sprintf("%.2f× the target, %.2f× the per-file path", joined/target, joined/file)
			if bare := v["Logs/repeated-i14/"+f.name+"-joined-bare"]; bare > 0 {
				peer += fmt.Sprintf("; bare scan of the same files %s events/s", rate(bare))
				ratio += fmt.Sprintf(", %.2f× the bare scan", joined/bare)
			}
			out = append(out, row{fmt.Sprintf("joined %s (one log per location) → verdicts, one core, 20,000 lfrem-like sessions (automata engine)", f.label),
				peer, rate(joined) + " " + f.unit, ratio})
		}
		return out, nil
	}},
	{"monitor", func() ([]row, error) {
		// ivc monitor under load: monitor's BenchmarkLoad,
		// OTLP/gRPC requests of 512 spans sent on loopback by a generator
		// in the same process, nothing lost (the benchmark fails
		// otherwise). spans/CPU-s is the rate per second of the process's
		// CPU time: on a loaded machine, what one core to itself would do.
		rs, err := bench("./monitor", "Load$", "2000x")
		if err != nil || len(rs) == 0 {
			return nil, err
		}
		m := rs[0].metrics
		return []row{{
			"OTLP/gRPC on loopback → ivc monitor → verdicts, 512-span requests (64 shop traces of 8 spans), 4 senders in process, sessions idle after 500 ms",
			"goal 250k spans/s on 2 cores, generator included (the Collector beside it: -rows peers)",
			fmt.Sprintf("%s spans/s (%s spans/CPU-s), p99 time to verdict %s (p50 %s, idle wait included), peak RSS %.0f MB, no loss",
				rate(m["spans/s"]), rate(m["spans/CPU-s"]), dur(m["p99-ms"]*1e3), dur(m["p50-ms"]*1e3), m["peak-RSS-MB"]),
			fmt.Sprintf("%.2f× the goal", m["spans/s"]/250e3),
		}}, nil
	}},
	{"connector", func() ([]row, error) {
		// The same load as the monitor row, through a Collector built in
		// code (otlp receiver → the ivc connector of the nested module
		// collector/ → verdicts to the debug exporter), beside ivc
		// monitor's, compared per second of the process's CPU time (the
		// machine may be shared): monitor's BenchmarkLoad, which drops
		// its verdicts, and BenchmarkLoadMonitor, which writes their
		// records as ivc monitor --output does.
		rs, err := goTestIn("collector", nil, "./ivcconnector", "-run", "^$", "-bench", "Load$", "-benchtime", "2000x")
		if err != nil || len(rs) == 0 {
			return nil, err
		}
		ws, err := goTestIn("collector", nil, "./ivcconnector", "-run", "^$", "-bench", "LoadMonitor$", "-benchtime", "2000x")
		if err != nil || len(ws) == 0 {
			return nil, err
		}
		ms, err := bench("./monitor", "Load$", "2000x")
		if err != nil || len(ms) == 0 {
			return nil, err
		}
		c, w, m := rs[0].metrics, ws[0].metrics, ms[0].metrics
		return []row{{
			"OTLP/gRPC on loopback → a Collector (otlp receiver) → the ivc connector → verdicts as log records, the monitor row's load",
			fmt.Sprintf("ivc monitor, same load: %s spans/CPU-s (%s spans/s); writing its records (--output): %s spans/CPU-s",
				rate(m["spans/CPU-s"]), rate(m["spans/s"]), rate(w["spans/CPU-s"])),
			fmt.Sprintf("%s spans/CPU-s (%s spans/s), peak RSS %.0f MB, no loss", rate(c["spans/CPU-s"]), rate(c["spans/s"]), c["peak-RSS-MB"]),
			fmt.Sprintf("%.2f× ivc monitor per CPU-s (%.2f× writing its records)", c["spans/CPU-s"]/m["spans/CPU-s"], c["spans/CPU-s"]/w["spans/CPU-s"]),
		}}, nil
	}},
	{"peers", func() ([]row, error) {
		// ivc monitor beside the OpenTelemetry Collector built from its
		// modules (the nested module monitor/collector's BenchmarkPeers):
		// one sender, each receiver a process of its own, compared per
		// second of the receiver's own CPU time; rounds alternate the
		// receivers (the machine may be shared).
		const rounds = 3
		runs := map[string][]map[string]float64{}
		for range rounds {
			rs, err := goTestIn("monitor/collector", nil, ".", "-run", "^$", "-bench", "Peers", "-benchtime", "4000x", "-count", "1", "-timeout", "60m")
			if err != nil {
				return nil, err
			}
			for _, r := range rs {
				runs[strings.TrimPrefix(r.name, "Peers/")] = append(runs[strings.TrimPrefix(r.name, "Peers/")], r.metrics)
			}
		}
		// med returns the median of a metric over the rounds and its
		// range.
		med := func(name, unit string) (m, lo, hi float64) {
			var vs []float64
			for _, r := range runs[name] {
				vs = append(vs, r[unit])
			}
			if len(vs) == 0 {
				return 0, 0, 0
			}
			slices.Sort(vs)
			return vs[len(vs)/2], vs[0], vs[len(vs)-1]
		}
		cell := func(name string) string {
			c, clo, chi := med(name, "spans/CPU-s")
			w, _, _ := med(name, "spans/s")
			rss, _, _ := med(name, "peak-RSS-MB")
			_, _, lost := med(name, "lost")
			loss := "no loss"
			if lost > 0 {
				loss = fmt.Sprintf("up to %.0f spans not released", lost)
			}
			return fmt.Sprintf("%s spans/CPU-s (%s–%s), %s spans/s ingested, peak RSS %.0f MB, %s", rate(c), rate(clo), rate(chi), rate(w), rss, loss)
		}
		bare, _, _ := med("collector-batch", "spans/CPU-s")
		group, _, _ := med("collector-groupbytrace", "spans/CPU-s")
		load := fmt.Sprintf("2,048,000 spans (256,000 shop traces of 8 spans) in 512-span OTLP/gRPC requests on loopback, one sender of 4 streams, the receiver a process of its own, median of %d alternated rounds", rounds)
		out := []row{
			{"Collector v0.165 (OTLP receiver → batch → nop exporter): bare ingestion; " + load, "", cell("collector-batch"), ""},
			{"Collector v0.165 (OTLP receiver → groupbytrace 500 ms → nop exporter): grouping only, same load", "bare ingestion", cell("collector-groupbytrace"),
				fmt.Sprintf("%.2f× bare ingestion per CPU-s", group/bare)},
		}
		for _, m := range []struct{ name, label string }{
			{"monitor", "ivc monitor --session-idle 500ms --max-session-memory 32MiB --output F: groups, judges and writes every session, same load"},
			{"monitor-defaults", "ivc monitor --output F, its defaults (sessions idle after 2 s, a quarter of the available memory), same load"},
		} {
			v, _, _ := med(m.name, "spans/CPU-s")
			out = append(out, row{m.label, fmt.Sprintf("Collector: bare ingestion %s, groupbytrace %s spans/CPU-s", rate(bare), rate(group)), cell(m.name),
				fmt.Sprintf("%.2f× bare ingestion (goal ≥ 1×), %.1f× groupbytrace per CPU-s", v/bare, v/group)})
		}
		return out, nil
	}},
	{"join10m", func() ([]row, error) {
		// Heavy (minutes, 1 GB of logs): only with -rows join10m.
		rs, err := goTest(nil, "./cmd/ivc", "-tags", "sweep", "-run", "^$", "-bench", "JoinSpill", "-benchtime", "1x", "-timeout", "60m")
		if err != nil || len(rs) == 0 {
			return nil, err
		}
		m := rs[0].metrics
		return []row{{"ivc analyze, 10M events in 1M sessions, 20 rotated per-service JSON Lines files, --max-memory 256MiB (spilling), one worker",
			fmt.Sprintf("in memory: %s events/CPU-s, peak RSS %.0f MiB", rate(m["mem-events/cpu-s"]), m["mem-peak-RSS-MiB"]),
			fmt.Sprintf("%s events/CPU-s (%s events/s), peak RSS %.0f MiB", rate(m["spill-events/cpu-s"]), rate(m["spill-events/s"]), m["spill-peak-RSS-MiB"]),
			fmt.Sprintf("%.2f× in memory (target ≥ 0.5×); RSS the budget %+.0f MiB (target ≤ +64)", m["spill/mem-cpu"], m["spill-peak-RSS-MiB"]-256)}}, nil
	}},
	{"gen", func() ([]row, error) {
		// The generated ABP verifiers (discrete partition: 4 locations; and
		// trivial: global traces), built and benchmarked by the end-to-end
		// test.
		rs, err := goTest([]string{"IVC_GEN_BENCH=1"}, "./internal/compile", "-run", "TestEndToEnd", "-short", "-v", "-count", "1")
		if err != nil {
			return nil, err
		}
		var out []row
		for _, r := range rs {
			switch {
			case r.pkg == "abpdiscrete" && strings.HasPrefix(r.name, "Local"):
				v := r.metrics["events/s"]
				out = append(out, row{fmt.Sprintf("generated code: local checks (%s), ABP, %v allocs/op", r.name, r.metrics["allocs/op"]),
					"target 200M events/s", rate(v) + " events/s", fmt.Sprintf("%.1f× the target", v/200e6)})
			case strings.HasPrefix(r.name, "Check/"):
				v := r.metrics["actions/s"]
				// Mode names are the engine's: accept, prefix.
				where := "on 4 locations (central search)"
				if r.pkg == "abptrivial" {
					where = "as one global trace"
				}
				out = append(out, row{"generated code: Check (" + strings.TrimPrefix(r.name, "Check/") + "), ABP multi-trace of 10,000+ actions " + where,
					"HIBOU NFA analysis ≈ 440k actions/s (published); target 100M", rate(v) + " actions/s", times(v / 440e3)})
			}
		}
		return out, nil
	}},
}

func main() {
	only := flag.String("rows", "", "comma-separated rows to run (default all but join10m and peers): "+keys())
	table1 := flag.Bool("table1", false, "print the automata paper's Table 1 with our seconds per set beside the paper's, instead of the rows")
	hibou := flag.Bool("hibou", false, "measure ivc beside HIBOU 0.8.7 (../shared/tools/hibou) on the lifeline-removal corpus, instead of the rows")
	every := flag.Int("every", 5, "with -hibou: one multi-trace in every this many of corpus/lfrem")
	rounds := flag.Int("rounds", 5, "with -hibou: HIBOU's runs in this many parts, every multi-trace judged by ivc after each")
	cache := flag.String("hibou-cache", "", "with -hibou: keep HIBOU's results in this file and read them back when it exists")
	dump := flag.String("hibou-samples", "", "with -hibou: write each multi-trace's times (ns) and verdicts to this TSV file")
	flag.Parse()
	fmt.Printf("Machine: %s/%s, %d CPUs, %s\n\n", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version())
	if *hibou {
		// The shared directory beside the module (run from its root, as
		// the rows are); by the working directory's name, as the tests
		// find it (a module reached through a link finds the link's
		// neighbour).
		wd, err := os.Getwd()
		if err == nil {
			err = printHibou(filepath.Join(wd, "..", "shared"), max(*every, 1), max(*rounds, 1), *cache, *dump)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	if *table1 {
		if err := printTable1(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	fmt.Println("| workload | peer | ivc | ratio |")
	fmt.Println("|---|---|---|---|")
	failed := false
	for _, p := range producers {
		if *only != "" && !slices.Contains(strings.Split(*only, ","), p.key) || *only == "" && heavy[p.key] {
			continue
		}
		rows, err := p.run()
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", p.key, err)
			failed = true
			continue
		}
		for _, r := range rows {
			fmt.Printf("| %s | %s | %s | %s |\n", r.workload, r.peer, r.ivc, r.ratio)
		}
	}
	if failed {
		os.Exit(1)
	}
}

// heavy are the rows that run only when -rows names them.
var heavy = map[string]bool{"join10m": true, "peers": true}

func keys() string {
	var ks []string
	for _, p := range producers {
		ks = append(ks, p.key)
	}
	return strings.Join(ks, ",")
}

// printTable1 prints Table 1 of the automata paper set by set: our seconds
// per set by AC and by AS (BenchmarkTable1 of package nfa, AS stopping at
// the first failing location as Algorithm 2 does) beside the paper's.
func printTable1() error {
	rs, err := bench("./internal/nfa", `Table1`, "5x")
	if err != nil {
		return err
	}
	type set struct{ ac, as, paper, mts, events float64 }
	sets := map[string]*set{}
	var order []string
	for _, r := range rs {
		name := strings.TrimPrefix(r.name, "Table1/")
		key, proc := name[:strings.LastIndex(name, "/")], name[strings.LastIndex(name, "/")+1:]
		s, ok := sets[key]
		if !ok {
			s = &set{}
			sets[key] = s
			order = append(order, key)
		}
		m := r.metrics
		s.mts, s.events = m["MTs"], m["events/s"]*m["s/set"]
		if proc == "AC" {
			s.ac = m["s/set"]
		} else {
			s.as = m["s/set"]
			s.paper = m["×paper"] * m["s/set"] // the paper's better time
		}
	}
	fmt.Println("| NFA / set | multi-traces | events | AC (s) | AS (s) | paper's better (s) | paper's / our AS | AS ≤ AC |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	for _, key := range order {
		s := sets[key]
		fmt.Printf("| %s | %.0f | %.0f | %.6f | %.6f | %.6f | %.1f× | %v |\n", key, s.mts, s.events, s.ac, s.as, s.paper, s.paper/s.as, s.as <= s.ac)
	}
	return nil
}
