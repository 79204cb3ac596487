package compile_test

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/compile"
	"github.com/ivc-project/ivc/internal/engine/rewrite"
	"github.com/ivc-project/ivc/internal/gen"
	"github.com/ivc-project/ivc/internal/nfa"
	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/verdict"
)

// e2eCase is a model compiled for a partition into package pkg.
type e2eCase struct {
	model, partition, pkg string
	sweep                 bool     // only with -tags sweep (testutil.Sweep)
	htf                   []string // .htf files to check besides the generated ones
	// logs are JSON Lines logs to read with the package's ReadJSONL, each
	// a list of files read together, by name.
	logs map[string][]string
}

// abpTraces are the shipped ABP traces: global traces, one component of
// every lifeline, which a verifier of other locations projects.
var abpTraces = []string{"../../testdata/abp/traces/trace1.htf", "../../testdata/abp/traces/trace1_error_1.htf", "../../testdata/abp/traces/trace2.htf"}

// abpLogs are the shipped ABP logs: one log, and the JSON Lines logs of
// the services (K's is CSV), joined.
var abpLogs = map[string][]string{
	"abp": {"../../testdata/logs/abp.jsonl"},
	"services": {"../../testdata/logs/services/L.jsonl", "../../testdata/logs/services/R.1.jsonl",
		"../../testdata/logs/services/R.jsonl", "../../testdata/logs/services/S.jsonl"},
}

// e2eCases: the default run keeps one case of each kind (discrete,
// grouped and trivial partitions, --main, .htf files, real names); the
// others, and the heavy models, cost a package each and run with -tags
// sweep.
var e2eCases = []e2eCase{
	{model: "abp", partition: "discrete", pkg: "abpdiscrete", htf: abpTraces, logs: abpLogs},
	{model: "abp", partition: "S,K;L,R", pkg: "abpgrouped", sweep: true, htf: abpTraces, logs: abpLogs},
	{model: "abp", partition: "trivial", pkg: "abptrivial", htf: abpTraces, logs: abpLogs},
	// The checkout of docs/diagrams.md: a Mermaid diagram, and its logs.
	{model: "../../testdata/checkout/design.md", partition: "discrete", pkg: "checkout", logs: map[string][]string{
		"good": {"../../testdata/checkout/good.jsonl"}, "bad": {"../../testdata/checkout/bad.jsonl"},
		"both": {"../../testdata/checkout/good.jsonl", "../../testdata/checkout/bad.jsonl"}}},
	{model: "network-synch", partition: "discrete", pkg: "network", sweep: true},
	{model: "network-synch", partition: "Proxy,Log;Client;EServer,SupServer", pkg: "networkgrouped", sweep: true},
	{model: "platoon2", partition: "discrete", pkg: "platoon2", sweep: true},
	// Written for this test: two branches whose areas do not meet.
	{model: "inter", partition: "discrete", pkg: "inter", htf: []string{
		"testdata/models/inter/i1.htf", "testdata/models/inter/i2.htf"}},
	// Real names: quoted, aliased, holding the .htf's punctuation.
	{model: "quoted", partition: "discrete", pkg: "quoted", sweep: true},
	{model: "quoted", partition: `gateway;xincan-user,plain;my.service [1],back\slash`, pkg: "quotedgrouped"},
	{model: "hr", partition: "discrete", pkg: "hr", sweep: true},
	{model: "rover", partition: "discrete", pkg: "rover", sweep: true},
	{model: "sensor", partition: "discrete", pkg: "sensor", sweep: true},
	{model: "platoon3", partition: "discrete", pkg: "platoon3", sweep: true},
}

// TestEndToEnd generates the verifier of several models into a temporary
// module, checks it with go vet and gofmt, runs its own examples and a
// test of zero allocations per event, and compares the verdicts of a
// generated program on accepted multi-traces, their prefixes, slices and
// mutants with those of the in-process automata engine (semi-centralized
// and centralized) and of the runtime engine (accept mode with accept,
// prefix mode with prefix). With IVC_GEN_BENCH=1 it also runs the
// benchmarks of the generated code and logs them; with IVC_GEN_DIR=DIR it
// writes the module into DIR (see module.dir). Every generated package
// costs its build, vet and test binary the first time: most models are
// generated only with -tags sweep (see e2eCases).
func TestEndToEnd(t *testing.T) {
	t.Parallel() // it mostly waits for the go command, as TestGoGenerate
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build the generated code")
	}
	code := module{"go.mod": "module example.com/e2e\n\ngo 1.24\n"}
	data := t.TempDir() // the multi-traces, which the verdicts program reads
	if dir := os.Getenv("IVC_GEN_DIR"); dir != "" {
		data = filepath.Join(dir, "data")
	}
	n := 12 // multi-traces per kind
	if testing.Short() {
		n = 4
	}
	want := map[string]string{} // by file: "accept | prefix"
	var mainCases []string
	for _, c := range e2eCases {
		if c.sweep && !testutil.Sweep() {
			continue
		}
		m := compileModel(t, c.model, c.partition, c.pkg)
		m.cfg.Main, m.cfg.ImportPath = c.pkg == "abpdiscrete", "example.com/e2e/"+c.pkg
		files, err := compile.Generate(m.cfg)
		if err != nil {
			t.Fatalf("%s: %v", c.pkg, err)
		}
		checkFiles(t, files, m.cfg.ImportPath)
		for _, f := range files {
			code[c.pkg+"/"+f.Name] = string(f.Data)
		}
		mts := traces(t, m, n)
		generated := len(mts)
		// The .htf files are given to the generated code as they are, and
		// their projections onto the package's locations to the engines.
		texts := make([][]byte, len(mts))
		for _, path := range c.htf {
			mt, err := multitrace.Read(path, m.sp.Sig)
			if err != nil {
				t.Fatal(err)
			}
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			mts = append(mts, projectOnto(mt, m.part))
			texts = append(texts, src)
		}
		rtAccept := rewrite.New(m.sp.Store, m.sp.Root, rewrite.Options{Mode: verdict.Accept})
		rtPrefix := rewrite.New(m.sp.Store, m.sp.Root, rewrite.Options{Mode: verdict.Prefix})
		for k := range mts {
			mt := &mts[k]
			name := fmt.Sprintf("%s/%03d.htf", c.pkg, k)
			if texts[k] == nil {
				texts[k] = mt.Format(m.sp.Sig)
			}
			writeFile(t, filepath.Join(data, name), string(texts[k]))
			letters, err := m.eng.Letters(mt)
			if err != nil {
				t.Fatal(err)
			}
			acc, pre := m.chk.CheckAS(letters, nfa.Accept), m.chk.CheckAS(letters, nfa.Prefix)
			for _, r := range []struct {
				mode     string
				as, ac   nfa.Result
				rt       verdict.Result
				rtMapped string
			}{
				{"accept", acc, m.chk.CheckAC(letters, nfa.Accept), rtAccept.Check(mt), ""},
				{"prefix", pre, m.chk.CheckAC(letters, nfa.Prefix), rtPrefix.Check(mt), ""},
			} {
				if r.as.Verdict != r.ac.Verdict {
					t.Errorf("%s %s: AS %v, AC %v", name, r.mode, r.as, r.ac)
				}
				if r.rt.Verdict != verdict.Inconc && r.rt.Verdict.String() != r.as.Verdict.String() {
					t.Errorf("%s %s: automata %v, runtime %v", name, r.mode, r.as, r.rt.Verdict)
				}
			}
			want[name] = expected(acc, m) + " | " + expected(pre, m)
		}
		for name, lines := range logCases(t, c, m, mts[:generated], filepath.Join(data, c.pkg, "logs")) {
			for i, line := range lines {
				want[fmt.Sprintf("%s/logs/%s#%d", c.pkg, name, i)] = line
			}
		}
		mainCases = append(mainCases, c.pkg)
		if c.pkg == "abpdiscrete" {
			code[c.pkg+"/parse_test.go"] = parseTest
		}
		if c.model == "quoted" {
			code[c.pkg+"/names_test.go"] = strings.ReplaceAll(namesTest, "PACKAGE", c.pkg)
		}
		if c.pkg == "abpdiscrete" || c.pkg == "abptrivial" {
			writeBench(t, code, c.pkg, m)
		}
	}
	code["cmd/verdicts/main.go"] = verdictsMain(mainCases)
	mod := code.dir(t)

	// The module's directory stays the same while the generated code does
	// (module.dir): the build cache serves the generated packages from one
	// run to the next, and the test cache their tests' results (the go
	// command reruns them when the generated code, or a file they read,
	// changes). -tags sweep reruns them always (-count=1).
	env := append(os.Environ(), "GOWORK=off", "GOPROXY=off", "GOTOOLCHAIN=local")
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(goTool, args...)
		cmd.Dir, cmd.Env = mod, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	if testutil.Sweep() {
		// go test vets the generated code with its default checks; the
		// sweep runs them all.
		run("vet", "./...")
		run("test", "-count=1", "./...")
	} else {
		run("test", "./...")
	}
	out := run("run", "./cmd/verdicts", data)
	got := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		name, verdicts, ok := strings.Cut(sc.Text(), ": ")
		if !ok {
			t.Fatalf("bad line %q", sc.Text())
		}
		got[name] = verdicts
	}
	if len(got) != len(want) {
		t.Errorf("the generated program checked %d multi-traces, want %d", len(got), len(want))
	}
	names := make([]string, 0, len(want))
	for name := range want {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if got[name] != want[name] {
			t.Errorf("%s: generated %q, in-process %q", name, got[name], want[name])
		}
	}
	hist := map[string]int{}
	sessions := 0
	for name, v := range want {
		if strings.Contains(name, "/logs/") {
			sessions++
			continue
		}
		acc, pre, _ := strings.Cut(v, " | ")
		hist["accept "+strings.Split(acc, "(")[0]]++
		hist["prefix "+strings.Split(pre, "(")[0]]++
	}
	t.Logf("%d multi-traces and %d sessions of JSON Lines logs (or their errors) of %d packages agree; verdicts of the multi-traces: %v",
		len(want)-sessions, sessions, len(mainCases), hist)
	// The command generated with --main.
	cmdOut := run("run", "./abpdiscrete/cmd/abpdiscretecheck", "-prefix", filepath.Join(data, "abpdiscrete", "000.htf"))
	if !strings.HasSuffix(strings.TrimSpace(cmdOut), "Pass") {
		t.Errorf("abpdiscretecheck: %s", cmdOut)
	}
	// It reads JSON Lines logs too, a verdict per session.
	logPath, err := filepath.Abs("../../testdata/logs/abp.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(goTool, "run", "./abpdiscrete/cmd/abpdiscretecheck", "-prefix", logPath)
	cmd.Dir, cmd.Env = mod, env
	logOut, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 ||
		!strings.Contains(string(logOut), logPath+" (session trace1_error_1): Fail LocalError([R]@75)\n") ||
		!strings.Contains(string(logOut), logPath+" (session trace2): WeakPass\n") {
		t.Errorf("abpdiscretecheck on a JSON Lines log: %v\n%s", err, logOut)
	}
	if os.Getenv("IVC_GEN_BENCH") == "1" {
		// 4 locations (a central search), then 1 (global traces: the local
		// walk decides).
		t.Log(run("test", "-run", "^$", "-bench", ".", "-benchmem", "./abpdiscrete"))
		t.Log(run("test", "-run", "^$", "-bench", ".", "-benchmem", "./abptrivial"))
	}
}

// A module is the files of a Go module, by slash-separated path.
type module map[string]string

// dir returns a directory holding the module: IVC_GEN_DIR when set (to
// inspect the module afterwards), else a directory of the user's cache
// named by a hash of the files, written once and reused while they stay
// the same. The go command caches a compiled package, and its tests'
// result, under a key that holds the package's directory, unless it builds
// with -trimpath; but -trimpath is a key of every package, the standard
// library's included, and it would compile those again for this module
// alone (tens of seconds of CPU with an empty build cache). A directory
// that stays the same lets it build and test the generated code once, with
// the standard library this test was built with.
func (m module) dir(t *testing.T) string {
	t.Helper()
	if dir := os.Getenv("IVC_GEN_DIR"); dir != "" {
		m.write(t, dir)
		return dir
	}
	dir, err := m.cached(t)
	if err != nil {
		t.Logf("building the generated code in a temporary directory, which the go command's caches do not serve: %v", err)
		dir = t.TempDir()
		m.write(t, dir)
	}
	return dir
}

// cached returns the module's directory in the user's cache (see dir),
// writing it if it is not there, and removes the directories unused for a
// week: the code of older versions.
func (m module) cached(t *testing.T) (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	parent := filepath.Join(cache, "ivc-test")
	h := sha256.New()
	for _, name := range slices.Sorted(maps.Keys(m)) {
		fmt.Fprintf(h, "%s %d\n%s", name, len(m[name]), m[name])
	}
	dir := filepath.Join(parent, fmt.Sprintf("e2e-%x", h.Sum(nil)[:12]))
	if !m.in(dir) {
		// Written aside and renamed, so that a run beside this one (of
		// another checkout) sees the whole module or none of it.
		if err := os.MkdirAll(parent, 0o755); err != nil {
			return "", err
		}
		tmp, err := os.MkdirTemp(parent, "tmp-")
		if err != nil {
			return "", err
		}
		defer os.RemoveAll(tmp) // nothing left once renamed
		m.write(t, tmp)
		if err := os.Rename(tmp, dir); err != nil && !m.in(dir) {
			return "", err // dir holds other files
		}
	}
	now := time.Now()
	_ = os.Chtimes(dir, now, now)
	others, _ := filepath.Glob(filepath.Join(parent, "*"))
	for _, other := range others {
		if fi, err := os.Stat(other); err == nil && now.Sub(fi.ModTime()) > 7*24*time.Hour {
			_ = os.RemoveAll(other)
		}
	}
	return dir, nil
}

// write writes the module's files into dir.
func (m module) write(t *testing.T, dir string) {
	t.Helper()
	for name, data := range m {
		writeFile(t, filepath.Join(dir, filepath.FromSlash(name)), data)
	}
}

// in reports whether dir holds the module's files as they are.
func (m module) in(dir string) bool {
	for name, data := range m {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil || string(b) != data {
			return false
		}
	}
	return true
}

func writeFile(t testing.TB, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// expected is the generated package's Result.String for an nfa result.
func expected(r nfa.Result, m *compiled) string {
	s := r.Verdict.String()
	if r.Reason != nfa.NoReason {
		s += " " + r.Reason.String()
	}
	if r.Reason == nfa.LocalError {
		var locals []string
		for _, f := range r.Locals {
			locals = append(locals, fmt.Sprintf("%s@%d", m.chk.Alphabets().Name(f.Loc), f.Pos))
		}
		s += "(" + strings.Join(locals, ",") + ")"
	}
	return s
}

// traces returns n multi-traces of each kind of package gen (the trace generator) for m's partition.
func traces(t *testing.T, m *compiled, n int) []multitrace.MultiTrace {
	var out []multitrace.MultiTrace
	for k, kind := range []gen.Kind{gen.KindAccepted, gen.KindPrefix, gen.KindSlice,
		gen.KindNoise, gen.KindSwapAct, gen.KindSwapComp} {
		for _, from := range []gen.Base{gen.FromPrefix, gen.FromAccepted} {
			if from != gen.FromPrefix && !kind.IsMutant() {
				continue
			}
			mts, err := gen.Generate(m.sp.Store, m.sp.Root, gen.Config{
				Kind: kind, N: n, Seed: uint64(7 + k), Locations: m.part, From: from})
			if err != nil {
				if kind.IsMutant() {
					continue // a mutation impossible here (no two events to swap, ...)
				}
				t.Fatalf("%s: %v", kind, err)
			}
			out = append(out, mts...)
		}
	}
	return out
}

// verdictsMain is a program that prints the verdicts of the generated
// packages on the .htf files of data/<package>/: Check in accept and
// prefix modes, and checks that the streaming path (LocalVerifier.Step
// per event, areas through MarshalBinary, CheckCentral) agrees; and on
// the JSON Lines logs listed in data/<package>/logs/*.list, what readLogs
// says of them.
func verdictsMain(pkgs []string) string {
	var b strings.Builder
	b.WriteString("package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n\t\"path/filepath\"\n\t\"reflect\"\n\t\"strings\"\n\n")
	for _, p := range pkgs {
		fmt.Fprintf(&b, "\t%q\n", "example.com/e2e/"+p)
	}
	b.WriteString(")\n\nvar checks = map[string]func(string) (string, error){\n")
	for _, p := range pkgs {
		fmt.Fprintf(&b, `	%[1]q: func(path string) (string, error) {
		mt, err := %[1]s.ReadHTF(path)
		if err != nil {
			return "", err
		}
		acc, pre := %[1]s.Check(&mt, %[1]s.Accept), %[1]s.Check(&mt, %[1]s.Prefix)
		var areas [%[1]s.NumLocations]%[1]s.Area
		for l := range areas {
			v := %[1]s.NewLocalVerifier(%[1]s.Location(l))
			for _, a := range mt[l] {
				v.Step(a)
			}
			a := v.Area()
			data, _ := a.MarshalBinary()
			if err := areas[l].UnmarshalBinary(data); err != nil {
				return "", err
			}
		}
		for _, m := range []%[1]s.Mode{%[1]s.Accept, %[1]s.Prefix} {
			want := acc
			if m == %[1]s.Prefix {
				want = pre
			}
			got, err := %[1]s.CheckCentral(&areas, &mt, m)
			if err != nil || !reflect.DeepEqual(got, want) {
				return "", fmt.Errorf("%%s: streaming %%+v (%%v), Check %%+v", path, got, err, want)
			}
		}
		acc.Nodes, pre.Nodes = 0, 0
		return acc.String() + " | " + pre.String(), nil
	},
`, p)
	}
	b.WriteString("}\n\nvar readLogs = map[string]func([]string) []string{\n")
	for _, p := range pkgs {
		fmt.Fprintf(&b, logsFunc, p)
	}
	b.WriteString(`}

func main() {
	status := 0
	for pkg, read := range readLogs {
		lists, _ := filepath.Glob(filepath.Join(os.Args[1], pkg, "logs", "*.list"))
		for _, list := range lists {
			data, err := os.ReadFile(list)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				status = 1
				continue
			}
			name := strings.TrimSuffix(filepath.Base(list), ".list")
			for i, line := range read(strings.Split(string(data), "\n")) {
				fmt.Printf("%s/logs/%s#%d: %s\n", pkg, name, i, line)
			}
		}
	}
	for pkg, check := range checks {
		files, _ := filepath.Glob(filepath.Join(os.Args[1], pkg, "*.htf"))
		for _, f := range files {
			v, err := check(f)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				status = 1
				continue
			}
			fmt.Printf("%s/%s: %s\n", pkg, filepath.Base(f), v)
		}
	}
	os.Exit(status)
}
`)
	return b.String()
}

// longABP returns an accepted multi-trace of ABP of at least 10,000
// actions: accepted global traces one after the other (ABP is a loopS),
// projected on m's partition.
func longABP(t testing.TB, m *compiled) multitrace.MultiTrace {
	rng := rand.New(rand.NewPCG(1, 2))
	var global []interaction.MultiAction
	for len(global) < 10_000 {
		tr, err := gen.Accepted(m.sp.Store, m.sp.Root, rng, gen.Options{MaxLength: 200})
		if err != nil {
			t.Fatal(err)
		}
		global = append(global, tr...)
	}
	return gen.Project(global, m.part)
}

// BenchmarkInProcess is the in-process automata engine (package nfa, the
// semi-centralized procedure) on the multi-trace of the generated code's
// BenchmarkCheck, for comparison: the engine's code is the generated
// code's, so this is the quicker loop to measure changes of it with.
func BenchmarkInProcess(b *testing.B) {
	m := compileModel(b, "abp", "discrete", "abpdiscrete")
	mt := longABP(b, m)
	letters, err := m.eng.Letters(&mt)
	if err != nil {
		b.Fatal(err)
	}
	for _, mode := range []nfa.Mode{nfa.Accept, nfa.Prefix} {
		b.Run(mode.String(), func(b *testing.B) {
			if r := m.chk.CheckAS(letters, mode); r.Verdict != nfa.Pass {
				b.Fatal(r)
			}
			b.ReportAllocs()
			// The CPU time too: the machine's load inflates it much less
			// than the time elapsed.
			var clock testutil.CPUClock
			clock.Start()
			for b.Loop() {
				m.chk.CheckAS(letters, mode)
			}
			clock.Stop()
			b.ReportMetric(float64(mt.Len())*float64(b.N)/b.Elapsed().Seconds(), "actions/s")
			clock.Report(b, mt.Len()*b.N, "action")
		})
	}
}

// writeBench writes the benchmarks and the allocation test of an ABP
// verifier (package pkg), on a multi-trace of at least 10,000 actions (accepted global
// traces one after the other: ABP is a loopS) and on a local trace.
func writeBench(t *testing.T, code module, pkg string, m *compiled) {
	mt := longABP(t, m)
	var b bytes.Buffer
	// The multi-trace is a constant of the test, not a file it reads: the
	// go command caches no result of a test that read a file of a
	// temporary directory (its path is part of the key), and this one's
	// result can be cached from one run to the next (the verdicts program
	// goes through ReadHTF).
	b.WriteString("package " + pkg + `

import "testing"

const longHTF = ` + strconv.Quote(string(mt.Format(m.sp.Sig))) + `

func long(tb testing.TB) MultiTrace {
	mt, err := ParseHTF("long.htf", []byte(longHTF))
	if err != nil {
		tb.Fatal(err)
	}
	if r := Check(&mt, Accept); r.Verdict != Pass {
		tb.Fatalf("long multi-trace: %v", r)
	}
	return mt
}

// TestZeroAllocs checks that the local checks allocate nothing per event.
func TestZeroAllocs(t *testing.T) {
	mt := long(t)
	for l := range mt {
		v := NewLocalVerifier(Location(l))
		if n := testing.AllocsPerRun(10, func() {
			v.Reset()
			if !v.StepAll(mt[l]) {
				t.Fatal("stuck")
			}
		}); n != 0 {
			t.Errorf("StepAll: %v allocations", n)
		}
		var area Area
		if n := testing.AllocsPerRun(10, func() {
			v.Reset()
			for _, a := range mt[l] {
				v.Step(a)
			}
			v.AreaInto(&area)
		}); n != 0 {
			t.Errorf("Step: %v allocations", n)
		}
	}
}

// BenchmarkLocalStepAll measures the local checks: events per second.
func BenchmarkLocalStepAll(b *testing.B) {
	benchmarkLocal(b, func(v *LocalVerifier, trace []Action) { v.StepAll(trace) })
}

// BenchmarkLocalStep is BenchmarkLocalStepAll calling Step per event.
func BenchmarkLocalStep(b *testing.B) {
	benchmarkLocal(b, func(v *LocalVerifier, trace []Action) {
		for _, a := range trace {
			v.Step(a)
		}
	})
}

// benchmarkLocal runs one local verifier per location over its trace of
// the long multi-trace with step, and reports events per second.
func benchmarkLocal(b *testing.B, step func(v *LocalVerifier, trace []Action)) {
	mt := long(b)
	var vs [NumLocations]*LocalVerifier
	for l := range vs {
		vs[l] = NewLocalVerifier(Location(l))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for l, v := range vs {
			v.Reset()
			step(v, mt[l])
		}
	}
	b.ReportMetric(float64(mt.Len())*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkCheck measures Check on the long multi-trace: actions per second.
func BenchmarkCheck(b *testing.B) {
	for _, mode := range []Mode{Accept, Prefix} {
		b.Run(mode.String(), func(b *testing.B) {
			mt := long(b)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				Check(&mt, mode)
			}
			b.ReportMetric(float64(mt.Len())*float64(b.N)/b.Elapsed().Seconds(), "actions/s")
		})
	}
}
`)
	code[pkg+"/bench_test.go"] = b.String()
}

// TestGoGenerate runs ivc compile from a go:generate line of a downstream
// module (which has ivc as a tool, replaced by this checkout: no network), then
// builds, vets and tests what it generated, and runs its command. It is
// behind the sweep tag (it builds ivc and a module of its own: seconds);
// the default run checks ivc compile in cmd/ivc's scripts and the generated
// code in TestEndToEnd.
func TestGoGenerate(t *testing.T) {
	if !testutil.Sweep() {
		t.Skip("builds ivc and a downstream module: go test -tags sweep")
	}
	t.Parallel()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	root := testutil.ModuleRoot(t)
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	mod := t.TempDir()
	writeFile(t, filepath.Join(mod, "go.mod"), fmt.Sprintf(
		"module example.com/down\n\ngo 1.24\n\nrequire github.com/ivc-project/ivc v0.0.0\n\nreplace github.com/ivc-project/ivc => %s\n\ntool github.com/ivc-project/ivc/cmd/ivc\n", root))
	writeFile(t, filepath.Join(mod, "go.sum"), string(sum))
	for _, f := range []string{"abp.hsf", "abp.hif"} {
		data, err := os.ReadFile(filepath.Join("testdata", "models", "abp", f))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(mod, "spec", f), string(data))
	}
	writeFile(t, filepath.Join(mod, "down.go"), "// Package down checks ABP logs.\npackage down\n\n"+
		"//go:generate go tool ivc compile spec/abp.hsf -o abpcheck --main --locations trivial\n")
	// Without -trimpath (see module.dir), ivc and its dependencies are the
	// packages this test was built with, from the build cache; the module
	// is new every run, and so are its packages.
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY=off", "GOTOOLCHAIN=local")
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(goTool, args...)
		cmd.Dir, cmd.Env = mod, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	run("mod", "tidy") // the requirements of the tool, as docs/compiled.md's recipe has them
	if out := run("generate", "./..."); !strings.Contains(out, "wrote package abpcheck (1 locations") {
		t.Errorf("go generate: %s", out)
	}
	run("vet", "./...")
	run("test", "-count=1", "./abpcheck")
	trace, err := filepath.Abs("../../testdata/abp/traces/trace1.htf")
	if err != nil {
		t.Fatal(err)
	}
	if out := run("run", "./abpcheck/cmd/abpcheckcheck", "-prefix", trace); !strings.HasSuffix(strings.TrimSpace(out), ": WeakPass") {
		t.Errorf("abpcheckcheck: %s", out)
	}
}

// namesTest tests the real names of the quoted model in a verifier: every
// action, multi-actions included, reads back from its String, which is
// its .htf text; ParseHTF reads quoted names with escapes and reports a
// bad one at its position.
const namesTest = `package PACKAGE

import (
	"strings"
	"testing"
)

func TestNames(t *testing.T) {
	multi := 0
	for a := Action(0); a < NumActions; a++ {
		if strings.HasPrefix(a.String(), "{") {
			multi++
		}
		if b, ok := ParseAction(a.String()); !ok || b != a {
			t.Errorf("ParseAction(%s) = %v, %v", a, b, ok)
		}
	}
	if PACKAGE_multi := multi; PACKAGE_multi == 0 && strings.HasSuffix("PACKAGE", "grouped") {
		t.Errorf("no multi-action in a location")
	}
	if _, err := ParseHTF("x.htf", []byte("{ [\"back\\\\slash\"] \"back\\\\slash\"!\"a,b?c\" }")); err != nil && !strings.Contains(err.Error(), "component is not made of locations") {
		t.Error(err)
	}
	for src, want := range map[string]string{
		"{ [\"api-gateway\"] gateway!\"x\" }":  "x.htf:1:27: undeclared message \"x\"",
		"{ [\"api-gateway\"] \"api-gateway\"!\"a\\q\" }": "x.htf:1:35: unexpected '\\\\' in a quoted name",
		"{ [\"api-gateway\"] \"api-gateway\"!\"a": "x.htf:1:33: quoted name not terminated",
	} {
		if _, err := ParseHTF("x.htf", []byte(src)); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: got %v, want %s", src, err, want)
		}
	}
}
`

// parseTest tests the .htf parser and the API of the ABP verifier
// (discrete locations).
const parseTest = `package abpdiscrete

import (
	"bytes"
	"compress/gzip"
	"strings"
	"testing"
)

// TestReadJSONL: what ivc reads and this reader does not is an error at
// its line; a compressed log is read as ivc reads it.
func TestReadJSONL(t *testing.T) {
	_, err := ReadJSONLFrom("x.jsonl", strings.NewReader("{\"session\":\"a\",\"action\":\"S?d\"}\n{\"session\":\"\xff\",\"action\":\"S?d\"}\n"))
	if err == nil || err.Error() != "x.jsonl:2: not valid UTF-8" {
		t.Errorf("got %v", err)
	}
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte("{\"action\":\"S?d\"}\n{\"action\":\"S!d_zero\"}"))
	zw.Close()
	sessions, err := ReadJSONLFrom("x.jsonl.gz", &b)
	if err != nil || len(sessions) != 1 || sessions[0].ID != "" || sessions[0].Events != 2 || len(sessions[0].MT[0]) != 2 {
		t.Errorf("got %+v, %v", sessions, err)
	}
}

func TestParseHTF(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"{\n\t[S] S?d.S!d_zero;\n\t[K] K?d_zero\n}", ""},
		{"/* legacy */ [S] S?d ; [K] K?d_zero;", ""},
		{"{ [K] K?d_zero; [S] S?d; [L]; [R] }", ""},
		{"{\n\t[S] S?d.S!nope\n}", "x.htf:2:12: undeclared message \"nope\""},
		{"{\n\t[S] S?d.X!d\n}", "x.htf:2:10: undeclared lifeline \"X\""},
		{"{\n\t[S,K] S?d.K?d_zero\n}", ""},
		{"{ [S,K] S?d; [K] }", "x.htf:1:14: location [K] twice"},
		{"{ [S] K?d_zero }", "x.htf:1:7: lifeline K is not in the component (location [S])"},
		{"{ [S] S?d; [S] }", "x.htf:1:12: location [S] twice"},
		{"{ [S] S?d", "x.htf:1:10: unexpected end of file, want '.', ';' or '}'"},
		{"{ [S] S?d } x", "x.htf:1:13: unexpected 'x', want the end of the file"},
		{"{ [S] S?d /* no end", "x.htf:1:11: comment not terminated"},
		{"S?d.K?d_zero", ""},
		{"{ [#all] S?d }", "x.htf:1:4: [#all] and [#any] are not supported"},
		{"", "x.htf:1:1: empty file"},
	} {
		mt, err := ParseHTF("x.htf", []byte(c.src))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q: %v", c.src, err)
		case c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want)):
			t.Errorf("%q: got %v, want %s", c.src, err, c.want)
		case c.want == "" && mt.Len() == 0:
			t.Errorf("%q: no events", c.src)
		}
	}
	// A global trace, or any component of several locations, is projected
	// onto the locations: each keeps its events in their order, and the
	// parts of a multi-action go to their own locations.
	local, err := ParseHTF("x.htf", []byte("{ [S] S?d.S!d_zero; [K] K?d_zero.K!d_zero; [L]; [R] }"))
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{
		"{ [S,K,L,R] S?d.{S!d_zero,K?d_zero}.K!d_zero }",
		"S?d.S!d_zero.K?d_zero.K!d_zero",
		"{ [K,S] K?d_zero.S?d.K!d_zero.S!d_zero; [L] }",
	} {
		if mt, err := ParseHTF("x.htf", []byte(src)); err != nil || mt.String() != local.String() {
			t.Errorf("%q: got %v, %v, want %v", src, mt.String(), err, local.String())
		}
	}
	// A multi-action of declared actions that the interaction never
	// performs is NoAction, on which the local check gets stuck.
	mt, err := ParseHTF("x.htf", []byte("{ [S] S?d.{S!d_zero,S?ce} }"))
	if err != nil || mt[0][1] != NoAction {
		t.Fatalf("%v %v", mt, err)
	}
	if r := Check(&mt, Prefix); r.String() != "Fail LocalError([S]@1)" {
		t.Errorf("got %v", r)
	}
	if a, ok := ParseAction("S!d_zero"); !ok || a.String() != "S!d_zero" || a.Location() != 0 {
		t.Errorf("ParseAction: %v %v", a, ok)
	}
	if _, ok := ParseAction("S!nope"); ok {
		t.Errorf("ParseAction accepts S!nope")
	}
	if l, ok := LocationOf("K"); !ok || l.String() != "[K]" || strings.Join(l.Lifelines(), ",") != "K" {
		t.Errorf("LocationOf: %v %v", l, ok)
	}
}

func TestCentralError(t *testing.T) {
	// Each local trace is possible, K's alone: no interleaving is.
	mt, err := ParseHTF("x.htf", []byte("{ [S]; [K] K?d_zero.K!d_zero.K?d_one.K!d_one; [L]; [R] }"))
	if err != nil {
		t.Fatal(err)
	}
	if r := Check(&mt, Accept); r.String() != "Fail CentralError" {
		t.Errorf("got %v", r)
	}
	if r := Check(&mt, Prefix); r.Verdict != WeakPass {
		t.Errorf("prefix: got %v", r)
	}
}
`
