package diagram_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/diagram"
	"github.com/ivc-project/ivc/internal/gen"
	"github.com/ivc-project/ivc/internal/random"
	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/verdict"
)

// A model of the round trips: a specification, and the multi-traces its
// directory ships.
type model struct {
	name, hsf, hif string
	traces         []string
}

// testdataModels are the module's own models, which every run writes and
// reads back.
func testdataModels(t *testing.T) []model {
	ms := []model{
		{"every", "testdata/every.hsf", "", nil},
		{"abp", "../../testdata/abp/abp.hsf", "", glob(t, "../../testdata/abp/traces/*.htf")},
		{"lfrem_i1", "../../testdata/lfrem/signature.hsf", "../../testdata/lfrem/i1.hif", glob(t, "../../testdata/lfrem/i1_*/*.htf")},
		{"lfrem_i14", "../../testdata/lfrem/signature.hsf", "../../testdata/lfrem/i14.hif", nil},
		{"slice_i0", "../../testdata/slice/i0.hsf", "", glob(t, "../../testdata/slice/*.htf")},
	}
	for _, hsf := range glob(t, "../../testdata/legacy/*.hsf") {
		ms = append(ms, model{name: "legacy_" + filepath.Base(hsf), hsf: hsf})
	}
	return ms
}

// corpusModels are the models of the shared corpus: a sample, or all of
// them in a sweep.
func corpusModels(t *testing.T) []model {
	corpus := filepath.Join(testutil.Shared(t), "corpus")
	var ms []model
	for _, hif := range glob(t, filepath.Join(corpus, "models/*/*.hif")) {
		hsf := glob(t, filepath.Join(filepath.Dir(hif), "*.hsf"))[0]
		ms = append(ms, model{name: strings.TrimSuffix(filepath.Base(hif), ".hif"), hsf: hsf, hif: hif})
	}
	for _, hif := range glob(t, filepath.Join(corpus, "lfrem/i*.hif")) {
		name := strings.TrimSuffix(filepath.Base(hif), ".hif")
		ms = append(ms, model{name: "lfrem_" + name, hsf: filepath.Join(corpus, "lfrem/signature.hsf"), hif: hif,
			traces: glob(t, filepath.Join(corpus, "lfrem", name+"_*", "*.htf"))})
	}
	for _, hif := range glob(t, filepath.Join(corpus, "3sat/*.hif")) {
		base := strings.TrimSuffix(hif, ".hif")
		ms = append(ms, model{name: filepath.Base(base), hsf: base + ".hsf", hif: hif, traces: []string{base + ".htf"}})
	}
	for _, hsf := range glob(t, filepath.Join(corpus, "legacy/*.hsf")) {
		ms = append(ms, model{name: "legacy_" + filepath.Base(hsf), hsf: hsf})
	}
	if testutil.Sweep() {
		return ms
	}
	var sample []model
	for _, m := range ms {
		if slices.Contains([]string{"abp", "hr", "sensor", "network", "coping", "i2", "rover", "lfrem_i0", "lfrem_i7", "uf20-01", "legacy_example_for_analysis.hsf"}, m.name) {
			sample = append(sample, m)
		}
	}
	return sample
}

func glob(t *testing.T, pattern string) []string {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestRoundTrip writes every model in both notations and reads it back:
// beside the model's signature, as the same canonical term; alone, as a
// specification that declares the same names and gives the same verdicts
// on the model's multi-traces and on generated ones (accepted, prefixes,
// noise and swapped actions), in prefix and accept modes.
func TestRoundTrip(t *testing.T) {
	for _, m := range testdataModels(t) {
		t.Run(m.name, func(t *testing.T) { roundTrip(t, m) })
	}
}

func TestRoundTripCorpus(t *testing.T) {
	for _, m := range corpusModels(t) {
		t.Run(m.name, func(t *testing.T) { roundTrip(t, m) })
	}
}

func roundTrip(t *testing.T, m model) {
	sp, err := spec.Load(m.hsf, m.hif)
	if err != nil {
		t.Fatal(err)
	}
	mts := multiTraces(t, sp, m)
	for _, w := range writers {
		text := w.format(sp.Sig, sp.Syntax, m.name)
		sameTerm(t, w.ext, sp.Store, sp.Root, text)
		back, err := spec.Parse(m.name+w.ext, []byte(text), "", nil)
		if err != nil {
			t.Fatalf("%s: %v\n%s", w.ext, err, text)
		}
		if len(back.Warnings) > 0 {
			t.Errorf("%s: warnings %v", w.ext, back.Warnings)
		}
		sameNames(t, w.ext, sp.Sig, back.Sig)
		for _, mode := range []verdict.Mode{verdict.Prefix, verdict.Accept} {
			sameVerdicts(t, w.ext, sp, back, mode, mts)
		}
	}
}

// writers are the two notations.
var writers = []struct {
	ext    string
	format func(*interaction.Signature, *interaction.Node, string) string
}{{".mmd", diagram.FormatMermaid}, {".puml", diagram.FormatPlantUML}}

// sameTerm checks that the diagram text, read beside the signature of st,
// is the interaction t: the same canonical term.
func sameTerm(t *testing.T, ext string, st *interaction.Store, root interaction.Term, text string) {
	t.Helper()
	back, err := spec.Parse("sig.hsf", interaction.FormatSignature(st.Signature()), "diagram"+ext, []byte(text))
	if err != nil {
		t.Fatalf("%s: %v\n%s", ext, err, text)
	}
	got := st.Canonical(st.Import(back.Store, back.Root))
	if want := st.Canonical(root); got != want {
		t.Errorf("%s: read back as %s\nwant %s\n%s", ext, st.Format(got), st.Format(want), text)
	}
}

// TestRoundTripRandom writes random interactions of every operator and
// kind of message, and reads each back as the same canonical term.
func TestRoundTripRandom(t *testing.T) {
	sig := random.Signature(4, 3)
	st := interaction.NewStore(sig)
	rng := random.New(41)
	n := 300
	if testutil.Sweep() {
		n = 5000
	}
	written := 0
	for range n {
		root := random.Interaction(st, rng, random.Params{MaxDepth: 5, MinActions: 3, Weights: random.All(),
			Messages: random.MessageKinds{Passing: 4, Emission: 1, Reception: 1, Synch: 1, Broadcast: 1}})
		node := st.Syntax(root)
		hasAct := false
		walkNodes(node, func(n *interaction.Node) { hasAct = hasAct || n.Kind == interaction.NodeAct })
		if hasAct {
			continue // a multi-action no message writes: a term, not a diagram's interaction
		}
		written++
		for _, w := range writers {
			sameTerm(t, w.ext, st, root, w.format(sig, node, ""))
		}
	}
	if written < n/2 {
		t.Errorf("%d of %d random interactions written", written, n)
	}
}

func walkNodes(n *interaction.Node, f func(*interaction.Node)) {
	f(n)
	for _, a := range n.Args {
		walkNodes(a, f)
	}
}

// sameNames checks that two signatures declare the same lifelines (in the
// same order), messages and gates.
func sameNames(t *testing.T, what string, a, b *interaction.Signature) {
	t.Helper()
	sorted := func(s []string) []string { s = slices.Clone(s); slices.Sort(s); return s }
	if !slices.Equal(a.Lifelines, b.Lifelines) || !slices.Equal(sorted(a.Messages), sorted(b.Messages)) ||
		!slices.Equal(sorted(a.Gates), sorted(b.Gates)) {
		t.Errorf("%s: read back with lifelines %q, messages %q, gates %q; want %q, %q, %q", what,
			b.Lifelines, b.Messages, b.Gates, a.Lifelines, a.Messages, a.Gates)
	}
}

// multiTraces returns the model's multi-traces and generated ones, as .htf
// text (names, not ids: the signature read back numbers messages in their
// order of appearance).
func multiTraces(t *testing.T, sp *spec.Spec, m model) map[string][]byte {
	mts := map[string][]byte{}
	for _, f := range m.traces {
		mt, err := multitrace.Read(f, sp.Sig)
		if err != nil {
			t.Fatal(err)
		}
		mts[f] = mt.Format(sp.Sig)
	}
	n := 6
	if testutil.Sweep() {
		n = 25
	}
	for _, kind := range []gen.Kind{gen.KindAccepted, gen.KindPrefix, gen.KindNoise, gen.KindSwapAct} {
		gs, err := gen.Generate(sp.Store, sp.Root, gen.Config{Kind: kind, N: n, Seed: 41,
			Locations: interaction.DiscreteLocations(sp.Sig), Options: gen.Options{MaxLength: 16}})
		if err != nil {
			continue // no accepted trace within the bounds: the model's own traces only
		}
		for i, mt := range gs {
			mts[kind.String()+"#"+string(rune('a'+i%26))+string(rune('0'+i/26))] = mt.Format(sp.Sig)
		}
	}
	return mts
}

// sameVerdicts checks that a and b give each multi-trace the same verdict.
func sameVerdicts(t *testing.T, what string, a, b *spec.Spec, mode verdict.Mode, mts map[string][]byte) {
	t.Helper()
	opt := check.DefaultOptions()
	opt.Mode = mode
	opt.MaxNodes = 200_000
	ca, err := check.New(a, opt)
	if err != nil {
		t.Fatal(err)
	}
	cb, err := check.New(b, opt)
	if err != nil {
		t.Fatal(err)
	}
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range mts {
			if !yield(k) {
				return
			}
		}
	})
	for _, k := range keys {
		mta, err := multitrace.ParseResolve(k, mts[k], a.Sig)
		if err != nil {
			t.Fatal(err)
		}
		mtb, err := multitrace.ParseResolve(k, mts[k], b.Sig)
		if err != nil {
			t.Fatalf("%s: %s: %v", what, k, err)
		}
		ra, rb := ca.Check(mta), cb.Check(mtb)
		if ra.Verdict == verdict.Inconc || rb.Verdict == verdict.Inconc {
			continue // a limit: nothing to compare
		}
		if ra.Verdict != rb.Verdict {
			t.Errorf("%s, %s mode: %s: %s, read back %s", what, mode, k, ra.Verdict, rb.Verdict)
		}
	}
}
