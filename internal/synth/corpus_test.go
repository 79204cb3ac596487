package synth

import (
	"bufio"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/nfa"
	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/spec"
)

// corpusModels are the models copied into testdata (see testdata/NOTICE),
// with the size of their compiled NFA and of their minimal DFA, or the
// rejection of their loop.
var corpusModels = []struct {
	name, hsf, hif string
	want           string
}{
	{"abp", "abp/abp.hsf", "", "64/90 min 64/90"},
	{"hr", "hr/hr.hsf", "", "100/211 min 100/211"},
	{"sensor", "sensor/sensor.hsf", "", "168/368 min 171/373"},
	{"platoon2", "platoon2/platoon2.hsf", "", "10/18 min 10/18"},
	{"network_synch", "network-synch/network.hsf", "", "6/9 min 6/9"},
	{"secret_code", "secret_code/secret_code.hsf", "", "8/12 min 14/30"},
	{"slice_i1", "slice-i1/i1.hsf", "", "11/14 min 11/14"},
	{"slice_i2", "slice-i2/i2.hsf", "", "i2.hif:7:3: loopW"},
	{"coping_synch", "coping-synch/coping.hsf", "", "coping.hif:1:1: loopP"},
}

func loadModel(t testing.TB, hsf, hif string) *spec.Spec {
	t.Helper()
	sp, err := spec.Load(hsf, hif)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// sizes returns "states/transitions min states/transitions" of a.
func sizes(t testing.TB, a *nfa.NFA) string {
	d, err := a.Determinize(1 << 20)
	if err != nil {
		t.Fatal(err)
	}
	m := d.Minimize()
	return fmt.Sprintf("%d/%d min %d/%d", a.NumStates(), a.NumTransitions(), m.NumStates(), m.NumTransitions())
}

// compileModel compiles a model, or returns the rejection as
// "file.hif:line:col: loopX".
func compileModel(t testing.TB, sp *spec.Spec) (*Automaton, string) {
	t.Helper()
	a, err := Compile(sp.Store, sp.Root, Options{File: sp.HIFPath, Syntax: sp.Syntax})
	if err != nil {
		var le *LoopError
		if !errors.As(err, &le) {
			t.Fatalf("%s: %v", sp.HIFPath, err)
		}
		if !strings.Contains(err.Error(), "ivc analyze") {
			t.Errorf("%s: no advice in %v", sp.HIFPath, err)
		}
		return nil, fmt.Sprintf("%s:%d:%d: %s", filepath.Base(le.File), le.Line, le.Col, le.Op)
	}
	return a, ""
}

// TestCorpusModels compiles the models of testdata and checks each NFA's
// language against the operational semantics and the runtime engine (on
// words up to the length that has 600 prefixes, 3000 under -tags sweep).
func TestCorpusModels(t *testing.T) {
	t.Parallel()
	for _, m := range corpusModels {
		t.Run(m.name, func(t *testing.T) {
			sp := loadModel(t, filepath.Join("testdata", "models", m.hsf), m.hif)
			a, rejected := compileModel(t, sp)
			got := rejected
			if a != nil {
				got = sizes(t, a.NFA)
			}
			if got != m.want {
				t.Fatalf("got %s, want %s", got, m.want)
			}
			if a == nil {
				return
			}
			checkRaw(t, sp, a.NFA)
			if testutil.Sweep() {
				checkShortTraces(t, sp, a, 24, 3000)
			} else {
				checkShortTraces(t, sp, a, 24, 200)
			}
			checkLongTraces(t, sp, a, 30, 200)
		})
	}
}

// checkRaw compares a with the derivative NFA synthesized without any
// canonical rewriting (a Store with it turned off), when that
// one is finite: the languages must be equal.
func checkRaw(t *testing.T, sp *spec.Spec, a *nfa.NFA) {
	t.Helper()
	st := interaction.NewStore(sp.Sig)
	st.SetCanonical(false)
	root := st.Import(sp.Store, sp.Root)
	maxStates := 2_000 // the larger raw NFAs (maze: 8,000 states) in the sweep
	if testutil.Sweep() {
		maxStates = 20_000
	}
	raw, err := Synthesize(st, root, Options{raw: true, MaxStates: maxStates})
	if err != nil {
		t.Logf("no raw NFA to compare with: %v", err)
		return
	}
	if ok, w := nfa.Equivalent(raw.NFA, a); !ok {
		t.Errorf("the NFA and the raw derivative NFA (%d states) differ on %s", raw.NFA.NumStates(), strings.Join(w, "."))
	}
}

// checkShortTraces checks the traces of length ≤ k exhaustively, for the
// largest k ≤ maxK whose NFA prefixes are at most maxPrefixes: the words of
// a are the traces of the operational semantics (without canonical
// rewriting), and the runtime engine (accept mode) agrees with a on every
// prefix of a word of a and on every one-event extension of one that a
// rejects (any other word has such a rejected extension as a prefix).
func checkShortTraces(t *testing.T, sp *spec.Spec, c *Automaton, maxK, maxPrefixes int) {
	t.Helper()
	a := c.NFA
	k := 0
	for k < maxK {
		n := 0
		nfaPrefixes(a, k+1, func([]nfa.Symbol, []nfa.State) bool { n++; return n <= maxPrefixes })
		if n > maxPrefixes {
			break
		}
		k++
	}
	st := interaction.NewStore(sp.Sig)
	st.SetCanonical(false)
	root := st.Import(sp.Store, sp.Root)
	want := semanticsWords(st, root, k)
	got := nfaWords(a, k)
	if !slices.Equal(got, want) {
		t.Fatalf("words of length ≤ %d differ from the semantics:\n%s\n%s", k,
			strings.Join(diff(got, want), "\n"), strings.Join(diff(want, got), "\n"))
	}
	ac := newAcceptor(sp.Store, sp.Root)
	syms := a.Symbols()
	prefixes, extensions := 0, 0
	nfaPrefixes(a, k, func(word []nfa.Symbol, set []nfa.State) bool {
		prefixes++
		tr := events(sp.Store, c, word)
		if got, r := ac.accepts(tr); got != a.Accepts(word) {
			t.Fatalf("on %s the NFA says %v, the runtime engine %v (%s)", formatWord(syms, word), !got, r.Verdict, r.Reason)
		}
		for x := range nfa.Symbol(syms.Len()) {
			if next := a.Accepts(append(slices.Clone(word), x)); next || hasMove(a, set, x) {
				continue
			}
			extensions++
			if got, r := ac.accepts(append(slices.Clone(tr), sp.Store.MultiAction(c.Acts[x]))); got {
				t.Fatalf("the runtime engine accepts %s.%s, the NFA does not (%v)", formatWord(syms, word), syms.Name(x), r.Verdict)
			}
		}
		return true
	})
	t.Logf("k=%d: %d traces, %d prefixes, %d rejected extensions agree", k, len(got), prefixes, extensions)
}

func hasMove(a *nfa.NFA, set []nfa.State, x nfa.Symbol) bool {
	for _, q := range set {
		for _, t := range a.Out(q) {
			if t.Sym == x {
				return true
			}
		}
	}
	return false
}

func formatWord(syms *nfa.Symbols, w []nfa.Symbol) string {
	if len(w) == 0 {
		return "ε"
	}
	names := make([]string, len(w))
	for i, x := range w {
		names[i] = syms.Name(x)
	}
	return strings.Join(names, ".")
}

// checkLongTraces draws n random words of a (up to maxLen events) and
// checks that the runtime engine accepts them, and that on a mutant of each
// (an event dropped, duplicated, or swapped with the next) the NFA and the
// runtime engine agree.
func checkLongTraces(t *testing.T, sp *spec.Spec, c *Automaton, n, maxLen int) {
	t.Helper()
	a := c.NFA
	rng := rand.New(rand.NewPCG(1, uint64(a.NumStates())))
	ac := newAcceptor(sp.Store, sp.Root)
	drawn, rejected := 0, 0
	for range 100 * n {
		if drawn == n {
			break
		}
		w := randomWord(a, rng, maxLen, 0.02)
		if w == nil {
			continue
		}
		drawn++
		tr := events(sp.Store, c, w)
		if ok, r := ac.accepts(tr); !ok {
			t.Fatalf("the runtime engine answers %v (%s) on an NFA word of length %d", r.Verdict, r.Reason, len(w))
		}
		if len(w) == 0 {
			continue
		}
		m := slices.Clone(w)
		i := rng.IntN(len(m))
		switch rng.IntN(3) {
		case 0:
			m = slices.Delete(m, i, i+1)
		case 1:
			m = slices.Insert(m, i, m[i])
		default:
			if i+1 < len(m) {
				m[i], m[i+1] = m[i+1], m[i]
			}
		}
		want := a.Accepts(m)
		got, r := ac.accepts(events(sp.Store, c, m))
		if got != want || r.Verdict.String() == "Inconc" {
			t.Fatalf("on a mutant of length %d the NFA says %v, the runtime engine %v (%s)", len(m), want, r.Verdict, r.Reason)
		}
		if !want {
			rejected++
		}
	}
	if drawn < n {
		t.Errorf("drew %d words of at most %d events, want %d", drawn, maxLen, n)
	}
	t.Logf("%d random words accepted by both, %d mutants rejected by both", drawn, rejected)
}

// hibouRow is a line of ../shared/corpus/nfa-sizes.tsv.
type hibouRow struct {
	model, hif                    string
	states, transitions           int
	synthesisUS                   int
	minDFAStates, minDFATransitns int
}

func readHibouSizes(t testing.TB, shared string) []hibouRow {
	t.Helper()
	f, err := os.Open(filepath.Join(shared, "corpus", "nfa-sizes.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []hibouRow
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.HasPrefix(line, "model\t") || strings.TrimSpace(line) == "" {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 7 {
			t.Fatalf("nfa-sizes.tsv: bad line %q", line)
		}
		num := func(s string) int {
			n, err := strconv.Atoi(s)
			if err != nil {
				t.Fatalf("nfa-sizes.tsv: %q: %v", line, err)
			}
			return n
		}
		rows = append(rows, hibouRow{f[0], f[1], num(f[2]), num(f[3]), num(f[4]), num(f[5]), num(f[6])})
	}
	return rows
}

// corpusRejected are the corpus models outside the compilable sublanguage
// (HIBOU's sizes for them come from its loop-instantiation cap).
var corpusRejected = map[string]string{
	"slice_i2":     "i2.hif:7:3: loopW",
	"coping_synch": "coping.hif:1:1: loopP",
}

// TestCorpusSizes compiles every model of the shared corpus and compares
// the sizes with HIBOU's (nfa-sizes.tsv): never more states than HIBOU's
// NFA, nor than the minimal DFA where that is smaller. It checks each NFA's
// language as TestCorpusModels does, longer with testutil.Sweep.
func TestCorpusSizes(t *testing.T) {
	t.Parallel()
	shared := testutil.Shared(t)
	rows := readHibouSizes(t, shared)
	if len(rows) == 0 {
		t.Fatal("no rows in nfa-sizes.tsv")
	}
	for _, row := range rows {
		t.Run(row.model, func(t *testing.T) {
			hif := filepath.Join(shared, "corpus", row.hif)
			hsf := hsfOf(t, hif)
			sp := loadModel(t, hsf, hif)
			a, rejected := compileModel(t, sp)
			if want, ok := corpusRejected[row.model]; ok || rejected != "" {
				if rejected != want {
					t.Fatalf("got %q, want rejection %q", rejected, want)
				}
				return
			}
			limit := min(row.states, row.minDFAStates)
			if a.NFA.NumStates() > limit {
				t.Errorf("%d states, HIBOU %d, minimal DFA %d", a.NFA.NumStates(), row.states, row.minDFAStates)
			}
			checkRaw(t, sp, a.NFA)
			if testutil.Sweep() {
				checkShortTraces(t, sp, a, 40, 20_000)
				checkLongTraces(t, sp, a, 200, 1000)
			} else {
				checkShortTraces(t, sp, a, 24, 150)
				checkLongTraces(t, sp, a, 10, 200)
			}
			t.Logf("ours %d/%d, HIBOU %d/%d, minimal DFA (HIBOU) %d/%d", a.NFA.NumStates(), a.NFA.NumTransitions(),
				row.states, row.transitions, row.minDFAStates, row.minDFATransitns)
		})
	}
}

// hsfOf returns the signature beside a corpus .hif (a model folder has one).
func hsfOf(t testing.TB, hif string) string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(filepath.Dir(hif), "*.hsf"))
	if err != nil || len(m) != 1 {
		t.Fatalf("no single .hsf beside %s: %v", hif, m)
	}
	return m[0]
}
