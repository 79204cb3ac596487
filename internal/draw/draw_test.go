package draw

import (
	"bytes"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/verdict"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/")

// models are the shipped models drawn by the golden tests.
var models = []struct{ name, hsf, hif string }{
	{"abp", "../../testdata/abp/abp.hsf", ""},
	{"lfrem_i1", "../../testdata/lfrem/signature.hsf", "../../testdata/lfrem/i1.hif"},
	{"lfrem_i14", "../../testdata/lfrem/signature.hsf", "../../testdata/lfrem/i14.hif"},
	{"slice_i0", "../../testdata/slice/i0.hsf", ""},
}

// runs are shipped multi-traces drawn with their verdicts, one per kind of
// picture: Pass, WeakPass (multi-prefix and slice), Fail.
var runs = []struct {
	name, model, htf string
	mode             verdict.Mode
	want             verdict.Verdict
}{
	{"lfrem_i1_pass", "lfrem_i1", "../../testdata/lfrem/i1_accepted/trace187.htf", verdict.Prefix, verdict.Pass},
	{"lfrem_i1_weakpass", "lfrem_i1", "../../testdata/lfrem/i1_accepted/trace1.htf", verdict.Prefix, verdict.WeakPass},
	{"lfrem_i1_fail", "lfrem_i1", "../../testdata/lfrem/i1_noise/trace103s1_noise.htf", verdict.Prefix, verdict.Fail},
	{"slice_late", "slice_i0", "../../testdata/slice/late.htf", verdict.Slice, verdict.WeakPass},
	{"slice_wrong", "slice_i0", "../../testdata/slice/wrong.htf", verdict.Slice, verdict.Fail},
}

// runtimeChecker returns the checker of sp in mode by the runtime engine,
// whose witnesses the drawings show, with the default settings.
func runtimeChecker(t *testing.T, sp *spec.Spec, mode verdict.Mode) *check.Checker {
	t.Helper()
	opts := check.DefaultOptions()
	opts.Engine, opts.Mode = check.EngineRuntime, mode
	c, err := check.New(sp, opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func load(t *testing.T, model string) *spec.Spec {
	t.Helper()
	for _, m := range models {
		if m.name == model {
			sp, err := spec.Load(m.hsf, m.hif)
			if err != nil {
				t.Fatal(err)
			}
			return sp
		}
	}
	t.Fatalf("no model %s", model)
	return nil
}

// golden compares got with testdata/name, or writes it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the drawing (go test -update rewrites it; compare with git diff)", path)
	}
}

// checkXML parses an SVG document with encoding/xml: well-formed, one svg
// root element in the SVG namespace, no external reference.
func checkXML(t *testing.T, name string, doc []byte) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(doc))
	depth, roots := 0, 0
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s: not XML: %v", name, err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				roots++
				if tok.Name.Local != "svg" || tok.Name.Space != "http://www.w3.org/2000/svg" {
					t.Errorf("%s: root element %v", name, tok.Name)
				}
			}
			for _, a := range tok.Attr {
				if a.Name.Local == "href" || strings.Contains(a.Value, "http") && a.Name.Local != "xmlns" {
					t.Errorf("%s: external reference %s=%q", name, a.Name.Local, a.Value)
				}
			}
			if tok.Name.Local == "script" || tok.Name.Local == "image" {
				t.Errorf("%s: a %s element", name, tok.Name.Local)
			}
			depth++
		case xml.EndElement:
			depth--
		}
	}
	if roots != 1 {
		t.Errorf("%s: %d root elements", name, roots)
	}
}

// checkLayout: no two labels meet, frames are nested or apart, and every
// label and frame lies inside the drawing.
func checkLayout(t *testing.T, name string, c *canvas) {
	t.Helper()
	all := box{0, 0, c.width, c.height}
	for i, a := range c.labels {
		if !all.contains(a) {
			t.Errorf("%s: label %v outside the drawing %v", name, a, all)
		}
		for _, b := range c.labels[:i] {
			if a.intersects(b) {
				t.Fatalf("%s: labels %v and %v overlap", name, a, b)
			}
		}
	}
	for i, a := range c.frames {
		if !all.contains(a) {
			t.Errorf("%s: frame %v outside the drawing %v", name, a, all)
		}
		for _, b := range c.frames[:i] {
			if a.intersects(b) && !a.contains(b) && !b.contains(a) {
				t.Fatalf("%s: frames %v and %v cross", name, a, b)
			}
		}
	}
}

func TestInteractionGolden(t *testing.T) {
	for _, m := range models {
		sp := load(t, m.name)
		svg := InteractionSVG(sp.Sig, sp.Syntax, Options{Title: m.name})
		checkXML(t, m.name, svg)
		golden(t, m.name+".svg", svg)
		if again := InteractionSVG(sp.Sig, sp.Syntax, Options{Title: m.name}); !bytes.Equal(svg, again) {
			t.Errorf("%s: two drawings differ", m.name)
		}
		l := newSeqLayout(sp.Sig, sp.Syntax)
		l.draw(m.name)
		checkLayout(t, m.name, &l.c)
	}
}

func TestMultiTraceGolden(t *testing.T) {
	for _, r := range runs {
		sp := load(t, r.model)
		mt, err := multitrace.Read(r.htf, sp.Sig)
		if err != nil {
			t.Fatal(err)
		}
		an := runtimeChecker(t, sp, r.mode)
		res := an.Check(mt)
		if res.Verdict != r.want {
			t.Fatalf("%s: %s, want %s", r.name, res.Verdict, r.want)
		}
		run := Run{Sig: sp.Sig, Syntax: sp.Syntax, MT: mt, Result: res}
		var ok bool
		if res.Verdict.OK() {
			run.Witness, ok = an.Witness(mt, r.mode)
		} else {
			run.Witness, ok = an.Witness(Consumed(mt, res.Explanation), verdict.Prefix)
		}
		if !ok {
			t.Fatalf("%s: no witness", r.name)
		}
		svg := MultiTraceSVG(run, Options{Title: r.name})
		checkXML(t, r.name, svg)
		checkLayout(t, r.name, multiTraceCanvas(run, Options{Title: r.name}))
		golden(t, r.name+".svg", svg)
	}
}

// generated writes a random interaction over n lifelines (l0...) and the
// gates g0, g1, with every operator, broadcasts, self messages, <synch>
// messages and gates, of about size messages.
func generated(n, size int, seed uint64) (*interaction.Signature, *interaction.Node, error) {
	rng := rand.New(rand.NewPCG(seed, 1))
	var ls, ms []string
	for i := range n {
		ls = append(ls, fmt.Sprintf("lifeline%d", i))
	}
	for i := range 8 {
		ms = append(ms, fmt.Sprintf("message_%d", i))
	}
	sig, err := interaction.NewSignature(ls, ms, []string{"g0", "gate1"})
	if err != nil {
		return nil, nil, err
	}
	name := func() string { return ls[rng.IntN(n)] }
	var b strings.Builder
	left := size
	var gen func(depth int)
	gen = func(depth int) {
		if left <= 0 || depth > 5 || rng.IntN(3) == 0 {
			left--
			m := ms[rng.IntN(len(ms))]
			switch rng.IntN(9) {
			case 0:
				fmt.Fprintf(&b, "%s -> %s", m, name())
			case 1:
				fmt.Fprintf(&b, "%s -- %s ->|", name(), m)
			case 2:
				fmt.Fprintf(&b, "g0 -- %s -> %s", m, name())
			case 3:
				fmt.Fprintf(&b, "%s -- %s -> gate1", name(), m)
			case 4:
				fmt.Fprintf(&b, "%s -- %s -> (%s,%s)", name(), m, name(), name())
			case 5:
				x := name()
				fmt.Fprintf(&b, "%s -- %s -> %s", x, m, x)
			case 6:
				fmt.Fprintf(&b, "%s -- <synch>%s -> %s", name(), m, name())
			case 7:
				b.WriteString("o")
			default:
				fmt.Fprintf(&b, "%s -- %s -> %s", name(), m, name())
			}
			return
		}
		ops := []string{"strict", "seq", "par", "alt", "loopS", "loopH", "loopW", "loopP", "coreg", "sync"}
		op := ops[rng.IntN(len(ops))]
		args := 2 + rng.IntN(3)
		switch op {
		case "coreg":
			fmt.Fprintf(&b, "coreg(%s,%s)", name(), name())
		case "sync":
			fmt.Fprintf(&b, "sync(%s!%s)", name(), ms[0])
		default:
			b.WriteString(op)
			if strings.HasPrefix(op, "loop") {
				args = 1
			}
		}
		b.WriteString("(\n")
		for i := range args {
			if i > 0 {
				b.WriteString(",\n")
			}
			gen(depth + 1)
		}
		b.WriteString(")")
	}
	b.WriteString("seq(\n")
	for i := 0; left > 0; i++ {
		if i > 0 {
			b.WriteString(",\n")
		}
		gen(0)
	}
	b.WriteString(")")
	node, err := interaction.ParseHIF("generated.hif", []byte(b.String()))
	if err != nil {
		return nil, nil, err
	}
	if _, err := interaction.NewStore(sig).Resolve("generated.hif", node); err != nil {
		return nil, nil, err
	}
	return sig, node, nil
}

// TestLayoutApart: interactions of 30 lifelines and hundreds of messages,
// with every operator, draw with no label over another and frames nested;
// the width grows with the lifelines.
func TestLayoutApart(t *testing.T) {
	widths := map[int]int{}
	for _, n := range []int{5, 30} {
		for seed := range uint64(4) {
			sig, node, err := generated(n, 300, seed)
			if err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("%d lifelines, seed %d", n, seed)
			l := newSeqLayout(sig, node)
			l.draw(name)
			checkLayout(t, name, &l.c)
			if len(l.c.labels) < 300 {
				t.Errorf("%s: %d labels", name, len(l.c.labels))
			}
			widths[n] = max(widths[n], l.c.width)
			checkXML(t, name, InteractionSVG(sig, node, Options{Title: name}))
		}
	}
	if widths[30] < 5*widths[5]/2 {
		t.Errorf("widths %v: 30 lifelines are not drawn wider", widths)
	}
}

// TestNarrow: a long title widens a narrow diagram to hold its tab.
func TestNarrow(t *testing.T) {
	sig, err := interaction.NewSignature([]string{"a"}, []string{"m"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	n, err := interaction.ParseHIF("one.hif", []byte("a -- m ->|"))
	if err != nil {
		t.Fatal(err)
	}
	title := strings.Repeat("a long title ", 10)
	l := newSeqLayout(sig, n)
	l.draw(title)
	checkLayout(t, "narrow", &l.c)
	if l.c.width < textWidth("sd "+title) {
		t.Errorf("%d pixels wide for a tab of %d", l.c.width, textWidth("sd "+title))
	}
}

// TestMultiTraceApart: a Fail on 30 lifelines (every lifeline a
// component, long messages) keeps its labels apart.
func TestMultiTraceApart(t *testing.T) {
	sig, node, err := generated(30, 100, 7)
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	text.WriteString("{")
	for i := range 30 {
		fmt.Fprintf(&text, "[lifeline%d] lifeline%d!message_%d.lifeline%d?message_%d;", i, i, i%8, i, (i+3)%8)
	}
	text.WriteString("}")
	mt, err := multitrace.ParseResolve("generated.htf", []byte(text.String()), sig)
	if err != nil {
		t.Fatal(err)
	}
	st := interaction.NewStore(sig)
	root, err := st.Resolve("generated.hif", node)
	if err != nil {
		t.Fatal(err)
	}
	an := runtimeChecker(t, &spec.Spec{Sig: sig, Store: st, Root: root, Syntax: node}, verdict.Prefix)
	res := an.Check(mt)
	run := Run{Sig: sig, Syntax: node, MT: mt, Result: res}
	if res.Verdict == verdict.Fail {
		run.Witness, _ = an.Witness(Consumed(mt, res.Explanation), verdict.Prefix)
	}
	checkLayout(t, "generated run", multiTraceCanvas(run, Options{Title: "generated"}))
	// Every event of every component, with no witness: one row per index.
	run.Result = verdict.Result{Verdict: verdict.Inconc, Reason: verdict.NodeLimit, Detail: "node limit reached"}
	run.Witness = nil
	c := multiTraceCanvas(run, Options{})
	checkLayout(t, "generated run, by index", c)
	if len(c.labels) < 1+30+60 {
		t.Errorf("%d labels, want the heading, 30 names and 60 events", len(c.labels))
	}
}

func TestEscape(t *testing.T) {
	if got := escape(`a<b>&"c'` + "\x01"); got != "a&lt;b&gt;&amp;&quot;c&#39;\uFFFD" {
		t.Errorf("escape: %q", got)
	}
}

// TestMaxSteps: a long Fail drawn with a cap shows the last steps before
// where the analysis got stuck, and says how many it left out.
func TestMaxSteps(t *testing.T) {
	sp := load(t, "abp")
	mt, err := multitrace.Read("../../testdata/abp/traces/trace1_error_1.htf", sp.Sig)
	if err != nil {
		t.Fatal(err)
	}
	an := runtimeChecker(t, sp, verdict.Prefix)
	res := an.Check(mt)
	w, ok := an.Witness(Consumed(mt, res.Explanation), verdict.Prefix)
	if res.Verdict != verdict.Fail || !ok || len(w) != 250 {
		t.Fatalf("%s, witness %v of %d steps", res.Verdict, ok, len(w))
	}
	run := Run{Sig: sp.Sig, Syntax: sp.Syntax, MT: mt, Result: res, Witness: w}
	all := multiTraceCanvas(run, Options{})
	capped := multiTraceCanvas(run, Options{MaxSteps: 20})
	checkLayout(t, "capped", capped)
	if capped.height >= all.height/5 {
		t.Errorf("capped at 20 steps, %d pixels high; all 250, %d", capped.height, all.height)
	}
	svg := string(MultiTraceSVG(run, Options{MaxSteps: 20}))
	for _, want := range []string{"… 230 earlier steps not drawn", ">stuck here<", ">!zero<"} {
		if !strings.Contains(svg, want) {
			t.Errorf("no %q", want)
		}
	}
	// Without a witness, the last events of each component.
	run.Witness = nil
	if svg := string(MultiTraceSVG(run, Options{MaxSteps: 20})); !strings.Contains(svg, "… the first 230 events of each component not drawn") {
		t.Error("no note of the events left out")
	}
}
