package main

// The side-by-side measurement of ivc and HIBOU 0.8.7 on the
// lifeline-removal corpus: `go run ./internal/cmd/benchtable -hibou`.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"github.com/ivc-project/ivc/internal/memlimit"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/spec"
)

// A sample is one multi-trace of the corpus: HIBOU's verdict and analysis
// time, and ivc's with the engine chosen (auto) and with the runtime engine
// forced, in each round.
type sample struct {
	hif, htf  string
	hibou     string
	hibouTime time.Duration
	auto, rt  check.Outcome // the first round's
	// autoTimes and rtTimes are the elapsed times of every round.
	autoTimes, rtTimes []time.Duration
	first              bool // the first multi-trace of its run
	// second is, for the first multi-trace of a run, its elapsed time
	// (engine auto) when judged second instead, after the next one of its
	// run, in every round: what it costs once the checker has judged one
	// multi-trace.
	second []time.Duration
}

var (
	hibouVerdict = regexp.MustCompile(`verdict\s*:\s*'(\w+)'`)
	hibouElapsed = regexp.MustCompile(`elapsed\s*:\s*([0-9.eE+-]+)`)
)

// printHibou measures HIBOU (analysis kind eliminate, POR and local
// analyses, goal WeakPass: tools/hibou/eliminate-por-loc.hcf, one process
// per multi-trace, its own "elapsed") and ivc (prefix mode, the default
// options, one checker per interaction judging its multi-traces in order on
// one worker, as `ivc analyze --jobs 1` does, each multi-trace's
// Outcome.Elapsed, which ivc prints as elapsed_us) on one multi-trace in
// every of corpus/lfrem/verdicts.tsv, and prints both side by side.
//
// The machines' speed drifts, by a third within minutes on the shared
// VMs, and HIBOU's processes take seconds where ivc's checks of the same
// multi-traces take a fraction of one: measured one after the other, ivc's
// times would come from one moment, HIBOU's from many. So HIBOU's runs are
// split into rounds (each takes every rounds-th multi-trace, so that it
// spans the corpus), and ivc judges every multi-trace after each round: both tools'
// times then spread over the same minutes, and ivc's figures are over all
// its rounds' judgments.
//
// HIBOU's results are kept in cache (when not empty) and read back from it
// on the next run: HIBOU does not change. With dump, each multi-trace's
// times (ivc's: the median of its rounds) and verdicts go to that TSV file.
func printHibou(shared string, every, rounds int, cache, dump string) error {
	dir := filepath.Join(shared, "corpus", "lfrem")
	tool := filepath.Join(shared, "tools", "hibou")
	// The samples file is written over: never one of the files read.
	for _, in := range []string{cache, filepath.Join(dir, "verdicts.tsv")} {
		if dump != "" && in != "" && sameFile(dump, in) {
			return fmt.Errorf("-hibou-samples %s: it is an input of the run (%s)", dump, in)
		}
	}
	if _, err := os.Stat(filepath.Join(tool, "hibou_label")); err != nil {
		fmt.Printf("skipped: %v\n", err)
		return nil
	}
	tsv, err := os.ReadFile(filepath.Join(dir, "verdicts.tsv"))
	if err != nil {
		return err
	}
	var samples []*sample
	for i, line := range strings.Split(strings.TrimSpace(string(tsv)), "\n")[1:] {
		f := strings.Split(line, "\t")
		if i%every == 0 && len(f) >= 2 {
			samples = append(samples, &sample{htf: f[0], hif: f[1]})
		}
	}
	cached := false
	if cache != "" {
		var err error
		if cached, err = readHibou(cache, samples); err != nil {
			return err
		}
	}
	if !cached {
		fmt.Fprintf(os.Stderr, "running HIBOU on %d multi-traces\n", len(samples))
	}
	// The collector as ivc analyze sets it, without memory flags (HIBOU's
	// processes are not Go's).
	defer memlimit.TuneGC(0)()
	for r := range rounds {
		if !cached {
			var part []*sample
			for i := r; i < len(samples); i += rounds {
				part = append(part, samples[i])
			}
			if err := runHibou(dir, tool, part); err != nil {
				return err
			}
		}
		for _, engine := range []check.Engine{check.EngineAuto, check.EngineRuntime} {
			if err := runIVC(dir, samples, engine, r); err != nil {
				return err
			}
		}
	}
	if cache != "" && !cached {
		if err := writeHibou(cache, samples); err != nil {
			return err
		}
	}
	report(samples, every, rounds)
	if dump == "" {
		return nil
	}
	var b bytes.Buffer
	b.WriteString("htf\thif\tengine\thibou\thibou_ns\tverdict\tauto_ns\truntime_ns\truntime_nodes\n")
	for _, s := range samples {
		fmt.Fprintf(&b, "%s\t%s\t%s\t%s\t%d\t%s\t%d\t%d\t%d\n", s.htf, s.hif, s.auto.Engine, s.hibou, s.hibouTime.Nanoseconds(),
			s.auto.Result.Verdict, statsOf(s.autoTimes).median.Nanoseconds(), statsOf(s.rtTimes).median.Nanoseconds(), s.rt.Result.TotalNodes())
	}
	return os.WriteFile(dump, b.Bytes(), 0o644)
}

// readHibou reads HIBOU's results of every sample from cache, and reports
// whether it found them all. A file that is not one writeHibou wrote (a
// line not "htf, verdict, nanoseconds") is an error: the run would write
// over it.
func readHibou(cache string, samples []*sample) (bool, error) {
	data, err := os.ReadFile(cache)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("-hibou-cache: %w", err)
	}
	type result struct {
		verdict string
		ns      int64
	}
	got := map[string]result{}
	for n, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if line == "" {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) == 3 {
			if ns, err := strconv.ParseInt(f[2], 10, 64); err == nil {
				got[f[0]] = result{f[1], ns}
				continue
			}
		}
		return false, fmt.Errorf("%s:%d: not a line of HIBOU's results (htf, verdict, ns): not written over", cache, n+1)
	}
	for _, s := range samples {
		r, ok := got[s.htf]
		if !ok {
			return false, nil
		}
		s.hibou, s.hibouTime = r.verdict, time.Duration(r.ns)
	}
	fmt.Fprintf(os.Stderr, "HIBOU's results read from %s\n", cache)
	return true, nil
}

// writeHibou keeps HIBOU's results of the samples in cache.
func writeHibou(cache string, samples []*sample) error {
	var b bytes.Buffer
	for _, s := range samples {
		fmt.Fprintf(&b, "%s\t%s\t%d\n", s.htf, s.hibou, s.hibouTime.Nanoseconds())
	}
	return os.WriteFile(cache, b.Bytes(), 0o644)
}

// runHibou runs HIBOU on the samples, one process at a time (so that its
// analyses do not compete with each other).
func runHibou(dir, tool string, samples []*sample) error {
	for _, s := range samples {
		cmd := exec.Command(filepath.Join(tool, "hibou_label"), "analyze", "signature.hsf", s.hif, s.htf, filepath.Join(tool, "eliminate-por-loc.hcf"))
		cmd.Dir = dir
		out, err := cmd.Output()
		v, e := hibouVerdict.FindSubmatch(out), hibouElapsed.FindSubmatch(out)
		if err != nil || v == nil || e == nil {
			return fmt.Errorf("hibou on %s: %v\n%s", s.htf, err, out)
		}
		sec, err := strconv.ParseFloat(string(e[1]), 64)
		if err != nil {
			return fmt.Errorf("hibou on %s: elapsed %q: %v", s.htf, e[1], err)
		}
		s.hibou, s.hibouTime = string(v[1]), time.Duration(sec*1e9)
	}
	return nil
}

// runIVC judges the samples with ivc, one checker per interaction (a run of
// `ivc analyze` over its multi-traces), with the given engine, in round r:
// the first round's outcomes are kept, and a later round's verdict must be
// the same.
func runIVC(dir string, samples []*sample, engine check.Engine, r int) error {
	byHIF := map[string][]*sample{}
	var order []string
	for _, s := range samples {
		if byHIF[s.hif] == nil {
			order = append(order, s.hif)
		}
		byHIF[s.hif] = append(byHIF[s.hif], s)
	}
	for _, hif := range order {
		sp, err := spec.Load(filepath.Join(dir, "signature.hsf"), filepath.Join(dir, hif))
		if err != nil {
			return err
		}
		opt := check.DefaultOptions()
		opt.Engine = engine
		c, err := check.New(sp, opt)
		if err != nil {
			return err
		}
		ss := byHIF[hif]
		files := make([]string, len(ss))
		for i, s := range ss {
			files[i] = filepath.Join(dir, s.htf)
		}
		i := 0
		var fail error
		c.Run(check.Files(c, files), check.RunOptions{Jobs: 1}, func(o check.Outcome) {
			if o.Err != nil && fail == nil {
				fail = o.Err
			}
			s := ss[i]
			i++
			kept, times := &s.auto, &s.autoTimes
			if engine == check.EngineRuntime {
				kept, times = &s.rt, &s.rtTimes
			}
			*times = append(*times, o.Elapsed)
			if r == 0 {
				*kept, s.first = o, s.first || i == 1
				kept.MT = nil // the verdict is kept, not the multi-trace
			} else if o.Result.Verdict != kept.Result.Verdict && fail == nil {
				fail = fmt.Errorf("%s: %s in round 1, %s in round %d (%s engine)", s.htf, kept.Result.Verdict, o.Result.Verdict, r+1, o.Engine)
			}
		})
		if fail != nil {
			return fail
		}
		if engine != check.EngineAuto || len(files) < 2 {
			continue
		}
		// The first multi-trace judged second, by a new checker: whether
		// being first costs it anything (one-time work not counted in
		// setup), apart from what it is (the first of a run is the same
		// kind of multi-trace in every run).
		if c, err = check.New(sp, opt); err != nil {
			return err
		}
		i = 0
		c.Run(check.Files(c, []string{files[1], files[0]}), check.RunOptions{Jobs: 1}, func(o check.Outcome) {
			if o.Err != nil && fail == nil {
				fail = o.Err
			}
			if i == 1 {
				ss[0].second = append(ss[0].second, o.Elapsed)
			}
			i++
		})
		if fail != nil {
			return fail
		}
	}
	return nil
}

// stats are the median, 90th percentile and maximum of some times.
type stats struct {
	n                int
	median, p90, max time.Duration
}

func statsOf(ts []time.Duration) stats {
	if len(ts) == 0 {
		return stats{}
	}
	ts = slices.Clone(ts)
	slices.Sort(ts)
	return stats{len(ts), ts[len(ts)/2], ts[len(ts)*9/10], ts[len(ts)-1]}
}

func (s stats) String() string {
	return fmt.Sprintf("%s | %s | %s", us(s.median), us(s.p90), us(s.max))
}

func us(d time.Duration) string { return dur(float64(d.Nanoseconds()) / 1e3) }

func ratio(peer, ivc stats) string {
	r := func(a, b time.Duration) string { return fmt.Sprintf("%.1f×", float64(a)/float64(max(b, 1))) }
	return fmt.Sprintf("%s | %s | %s", r(peer.median, ivc.median), r(peer.p90, ivc.p90), r(peer.max, ivc.max))
}

// report prints the table and the verdicts' agreement.
func report(samples []*sample, every, rounds int) {
	times := func(keep func(*sample) bool, of func(*sample) []time.Duration) stats {
		var ts []time.Duration
		for _, s := range samples {
			if keep(s) {
				ts = append(ts, of(s)...)
			}
		}
		return statsOf(ts)
	}
	all := func(*sample) bool { return true }
	engineIs := func(e check.Engine) func(*sample) bool {
		return func(s *sample) bool { return s.auto.Engine == e }
	}
	hibou := func(s *sample) []time.Duration { return []time.Duration{s.hibouTime} }
	auto := func(s *sample) []time.Duration { return s.autoTimes }
	rt := func(s *sample) []time.Duration { return s.rtTimes }
	fmt.Printf("%d multi-traces of corpus/lfrem (every %d-th row of verdicts.tsv), prefix mode; HIBOU: eliminate, POR, local analyses, goal WeakPass (its \"elapsed\"), one process per multi-trace, in %d rounds; ivc: default options, one checker per interaction, one worker, the collector as ivc analyze sets it (memlimit.TuneGC) (Outcome.Elapsed, elapsed_us), every multi-trace judged after each of HIBOU's rounds (n counts the judgments)\n\n", len(samples), every, rounds)
	fmt.Println("| multi-traces | tool | n | median | p90 | max |")
	fmt.Println("|---|---|---|---|---|---|")
	line := func(what, tool string, s stats) {
		fmt.Printf("| %s | %s | %d | %s |\n", what, tool, s.n, s)
	}
	ratioLine := func(what string, peer, ivc stats) {
		fmt.Printf("| %s | ratio | | %s |\n", what, ratio(peer, ivc))
	}
	groups := []struct {
		what string
		keep func(*sample) bool
		of   func(*sample) []time.Duration
		tool string
	}{
		{"all", all, auto, "ivc (engine auto)"},
		{"all", all, rt, "ivc (runtime engine forced)"},
		{"auto chose the automata engine", engineIs(check.EngineAutomata), auto, "ivc (automata engine)"},
		{"auto chose the runtime engine", engineIs(check.EngineRuntime), auto, "ivc (runtime engine)"},
	}
	for _, g := range groups {
		h := times(g.keep, hibou)
		i := times(g.keep, g.of)
		line(g.what, "HIBOU 0.8.7", h)
		line(g.what, g.tool, i)
		ratioLine(g.what, h, i)
	}
	first := func(s *sample) bool { return s.first }
	rest := func(s *sample) bool { return !s.first }
	second := func(s *sample) []time.Duration { return s.second }
	fmt.Printf("\nFirst multi-trace of each run (engine auto): median %s (max %s); the same judged second instead: median %s; the others: median %s. Setup of the first: median %s.\n",
		us(times(first, auto).median), us(times(first, auto).max), us(times(first, second).median), us(times(rest, auto).median),
		us(times(first, func(s *sample) []time.Duration { return []time.Duration{s.auto.Setup} }).median))
	// By engine: auto gives each engine other interactions, and the
	// runtime engine's memos make a run faster as it goes (the first
	// multi-trace has none of them).
	for _, e := range []check.Engine{check.EngineAutomata, check.EngineRuntime} {
		is := engineIs(e)
		firstOf := func(s *sample) bool { return s.first && is(s) }
		fmt.Printf("  %s engine, %d runs (all rounds): first %s, judged second %s; the others %s\n", e, times(firstOf, auto).n,
			us(times(firstOf, auto).median), us(times(firstOf, second).median),
			us(times(func(s *sample) bool { return !s.first && is(s) }, auto).median))
	}
	fmt.Print("ivc's median in each round, engine auto and runtime engine forced:")
	for r := range rounds {
		round := func(of func(*sample) []time.Duration) func(*sample) []time.Duration {
			return func(s *sample) []time.Duration { return of(s)[r : r+1] }
		}
		fmt.Printf(" %s and %s;", us(times(all, round(auto)).median), us(times(all, round(rt)).median))
	}
	fmt.Println()
	agree, weak := 0, 0
	var differ []string
	for _, s := range samples {
		v := s.auto.Result.Verdict.String()
		switch {
		case v == s.hibou:
			agree++
		case v == "Pass" && s.hibou == "WeakPass":
			weak++ // HIBOU stops at its goal WeakPass
		default:
			differ = append(differ, fmt.Sprintf("%s: HIBOU %s, ivc %s", s.htf, s.hibou, v))
		}
		if s.rt.Result.Verdict != s.auto.Result.Verdict {
			differ = append(differ, fmt.Sprintf("%s: ivc %s with the %s engine, %s with the runtime engine", s.htf, v, s.auto.Engine, s.rt.Result.Verdict))
		}
	}
	fmt.Printf("Verdicts: %d equal, %d HIBOU WeakPass where ivc says Pass (HIBOU stops at its goal WeakPass), %d other differences.\n", agree, weak, len(differ))
	w := bufio.NewWriter(os.Stdout)
	for _, d := range differ {
		fmt.Fprintln(w, "  "+d)
	}
	w.Flush()
}

// sameFile reports whether a and b name the same file: the same path, or
// two paths of one existing file.
func sameFile(a, b string) bool {
	if x, err := filepath.Abs(a); err == nil {
		if y, err := filepath.Abs(b); err == nil && x == y {
			return true
		}
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}
