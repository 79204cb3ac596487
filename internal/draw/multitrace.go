package draw

import (
	"fmt"
	"strings"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/verdict"
)

// Run is a multi-trace with its verdict, as MultiTraceSVG draws it.
type Run struct {
	Sig *interaction.Signature
	// Syntax is the interaction, whose messages say which emission an
	// arrow may join to which reception (nil: no arrows).
	Syntax *interaction.Node
	MT     *multitrace.MultiTrace
	Result verdict.Result
	// Witness orders the events: for a Pass or WeakPass, the interleaving
	// the analysis found (check.Checker.Witness); for a Fail, one of the
	// part consumed (the witness, in prefix mode, of Consumed(MT,
	// Result.Explanation)). Without it, the i-th events of the components
	// share a row, and no arrow is drawn.
	Witness check.Witness
	// Repair is the repair of a Fail (check.Outcome.Repair), written under
	// the heading, an edit a line (nil: none).
	Repair *verdict.Repair
}

// Limits of a multi-trace drawing of a Fail.
const (
	maxExpected = 12 // expected actions drawn, one a row
	maxRest     = 5  // events drawn per component after the one where the analysis got stuck
)

// Consumed returns the part of mt that a Fail's explanation says was
// consumed: each component cut after its consumed events. Its witness
// orders the consumed events of a drawing.
func Consumed(mt *multitrace.MultiTrace, e *verdict.Explanation) *multitrace.MultiTrace {
	out := &multitrace.MultiTrace{}
	for i, c := range mt.Components {
		n := len(c.Trace)
		if e != nil && i < len(e.Components) {
			n = min(n, e.Components[i].Consumed)
		}
		out.Components = append(out.Components, multitrace.Component{Lifelines: c.Lifelines, Trace: c.Trace[:n]})
	}
	return out
}

// MultiTraceSVG draws a multi-trace with its verdict, as a sequence
// diagram in SVG: the lifelines as columns, grouped by component (a dashed
// frame around the names of a component's lifelines), and each event as a
// dot on its lifeline's column, labelled with its action (!m an emission,
// ?m a reception), one row per step of the witness. For a Pass or WeakPass,
// arrows join each emission to the reception the interaction pairs it with
// (the first later reception of its message by a lifeline the interaction
// sends it to); actions simulated in slice mode are grey and dashed. For a
// Fail: the consumed part, then, in red, the event of each component where
// the analysis got stuck, then, dashed and green, the actions the
// interaction expected there (at most 12, one a row), then a few of the
// events left (grey). The heading gives the title, the verdict and its
// reason, and a Fail's repair (in green: the edits that make it right).
func MultiTraceSVG(r Run, opt Options) []byte {
	return multiTraceCanvas(r, opt).svg(titleOr(opt.Title, "multi-trace"))
}

// traceLayout places the columns and rows of a multi-trace drawing.
type traceLayout struct {
	r      Run
	c      canvas
	col    []int // x of each lifeline (by id), -1 for none
	gap    int
	legend int   // x where the left legend ends (right-aligned)
	top    int   // y of row 0
	rows   int   // rows used
	comp   []int // component of each lifeline (by id), -1 for none
	marks  []mark
	// maxSteps caps the rows of events (Options.MaxSteps); wide is the right
	// end of the notes written across rows.
	maxSteps, wide int
}

const (
	traceRowH = 24
	legendW   = 90
)

func multiTraceCanvas(r Run, opt Options) *canvas {
	sig := r.Sig
	l := &traceLayout{r: r, gap: 100, maxSteps: opt.MaxSteps, col: make([]int, len(sig.Lifelines)), comp: make([]int, len(sig.Lifelines))}
	for i := range l.col {
		l.col[i], l.comp[i] = -1, -1
	}
	for _, name := range sig.Lifelines {
		l.gap = max(l.gap, headWidth(name)+16)
	}
	for _, m := range sig.Messages {
		// Labels on the left of one column and the right of the previous.
		l.gap = max(l.gap, 2*textWidth("!"+m)+24)
	}
	l.legend = margin + legendW
	x := l.legend + 16 + l.gap/2
	c := &l.c
	// The heading: title, verdict and reason.
	y := margin
	width := 0
	if opt.Title != "" {
		b := c.text(margin, y, "start", "title", opt.Title)
		width = max(width, b.x1)
		y += textHeight + 4
	}
	res := r.Result
	head := res.Heading()
	b := c.text(margin, y, "start", strings.ToLower(res.Verdict.String()), head)
	width = max(width, b.x1)
	y += textHeight + 4
	if e := res.Explanation; e != nil && e.LocalFailure != "" {
		b := c.text(margin, y, "start", "fail", e.LocalFailureText())
		width = max(width, b.x1)
		y += textHeight + 4
	}
	if res.Verdict == verdict.Fail && r.Repair != nil {
		for _, line := range r.Repair.Explain() {
			b := c.text(margin, y, "start", "expectedtext", line)
			width = max(width, b.x1)
			y += textHeight + 4
		}
	}
	// Columns, component by component.
	headY := y + 10
	for ci, comp := range r.MT.Components {
		first := x
		for id := range comp.Lifelines.All() {
			name := sig.Lifelines[id]
			l.col[id], l.comp[id] = x, ci
			w := headWidth(name)
			c.rect(box{x - w/2, headY, x - w/2 + w, headY + headH}, "head")
			c.text(x, headY+(headH-textHeight)/2, "middle", "name", name)
			x += l.gap
		}
		if comp.Lifelines.Len() > 1 {
			g := box{first - l.gap/2 + 4, headY - 5, x - l.gap/2 - 4, headY + headH + 5}
			c.frames = append(c.frames, g)
			c.rect(g, "group")
		}
	}
	right := x - l.gap/2
	l.top = headY + headH + 16
	switch {
	case res.Verdict == verdict.Fail:
		l.fail()
	case l.r.Witness != nil:
		l.steps(l.r.Witness)
	default:
		l.byIndex(nil)
	}
	l.labels()
	bottom := l.top + l.rows*traceRowH + 8
	for _, x := range l.col {
		if x >= 0 {
			c.line(x, headY+headH, x, bottom, "lifeline")
		}
	}
	c.width = max(right, width, l.wide) + margin
	c.height = bottom + margin
	return c
}

// rowY is the top of row i.
func (l *traceLayout) rowY(i int) int { return l.top + i*traceRowH }

// event draws an action on its lifeline at row i, and returns its mark
// (-1 when its lifeline is in no component).
func (l *traceLayout) event(i int, a interaction.Action, dot, text string) int {
	x := l.col[a.Lifeline()]
	if x < 0 {
		return -1
	}
	y := l.rowY(i) + traceRowH/2
	kind := "?"
	if a.Kind() == interaction.Emission {
		kind = "!"
	}
	r := 4
	if dot != "event" && dot != "stuck" && dot != "rest" {
		r = 5
	}
	l.c.dot(x, y, r, dot)
	l.marks = append(l.marks, mark{x: x, y: y, class: text, text: kind + l.r.Sig.Messages[a.Message()]})
	l.rows = max(l.rows, i+1)
	return len(l.marks) - 1
}

// mark is an event's label, written once the arrows are known: on the
// right of its dot, or on the left when an arrow leaves it to the right
// and none to the left.
type mark struct {
	x, y        int
	class, text string
	left, right bool // an arrow leaves the dot on that side
}

// labels writes the labels of the events.
func (l *traceLayout) labels() {
	for _, m := range l.marks {
		if m.right && !m.left {
			l.c.text(m.x-8, m.y-textHeight/2, "end", m.class, m.text)
		} else {
			l.c.text(m.x+8, m.y-textHeight/2, "start", m.class, m.text)
		}
	}
}

// join draws an arrow from the event of mark i to that of mark j.
func (l *traceLayout) join(i, j int, class, marker string) {
	a, b := &l.marks[i], &l.marks[j]
	x1 := b.x - 5
	if b.x < a.x {
		x1 = b.x + 5
	}
	l.c.arrow(a.x, a.y, x1, b.y, class, marker)
	switch {
	case b.x > a.x:
		a.right, b.left = true, true
	case b.x < a.x:
		a.left, b.right = true, true
	}
}

// legendAt writes a word in the left legend at row i.
func (l *traceLayout) legendAt(i int, class, s string) {
	l.c.text(l.legend, l.rowY(i)+traceRowH/2-textHeight/2, "end", class, s)
	l.rows = max(l.rows, i+1)
}

// pending is an emission waiting for its receptions.
type pending struct {
	mark      int
	from      interaction.LifelineID
	msg       interaction.MessageID
	receivers map[string]bool // lifelines that may still receive it
	sim       bool
}

// steps draws the events of a witness, one step a row, with the arrows of
// the messages, and returns the rows used.
func (l *traceLayout) steps(w check.Witness) int {
	sig := l.r.Sig
	pairs := messagePairs(sig, l.r.Syntax)
	var open []*pending
	base := 0
	if skip := len(w) - l.maxSteps; l.maxSteps > 0 && skip > 0 {
		l.note(0, "resttext", fmt.Sprintf("… %d earlier steps not drawn", skip))
		w, base = w[skip:], 1
	}
	for k, s := range w {
		i := base + k
		consumed := map[int]bool{}
		for _, e := range s.Events {
			consumed[e.Component] = true
		}
		if s.Simulated {
			l.legendAt(i, "simtext", "simulated")
		}
		type placed struct {
			a    interaction.Action
			mark int
			sim  bool
		}
		var here []placed
		for _, a := range s.Action {
			sim := !consumed[l.comp[a.Lifeline()]]
			dot, text := "event", "label"
			if sim {
				dot, text = "sim", "simtext"
			}
			if k := l.event(i, a, dot, text); k >= 0 {
				here = append(here, placed{a, k, sim})
			}
		}
		// Emissions first: a <synch> message's reception is in its step.
		for _, p := range here {
			if p.a.Kind() == interaction.Emission {
				if rs := pairs[pairKey{p.a.Lifeline(), p.a.Message()}]; len(rs) > 0 {
					open = append(open, &pending{mark: p.mark, from: p.a.Lifeline(), msg: p.a.Message(), receivers: clone(rs), sim: p.sim})
				}
			}
		}
		for _, p := range here {
			if p.a.Kind() != interaction.Reception {
				continue
			}
			name := sig.Lifelines[p.a.Lifeline()]
			for k, e := range open {
				if e.msg != p.a.Message() || !e.receivers[name] {
					continue
				}
				delete(e.receivers, name)
				class, marker := "msg", "open"
				if e.sim || p.sim {
					class, marker = "simmsg", "grey"
				}
				l.join(e.mark, p.mark, class, marker)
				if len(e.receivers) == 0 {
					open = append(open[:k], open[k+1:]...)
				}
				break
			}
		}
	}
	return base + len(w)
}

// note writes a line of text across row i, which has no event.
func (l *traceLayout) note(i int, class, s string) {
	b := l.c.text(l.legend+16, l.rowY(i)+traceRowH/2-textHeight/2, "start", class, s)
	l.wide = max(l.wide, b.x1)
	l.rows = max(l.rows, i+1)
}

func clone(m map[string]bool) map[string]bool {
	out := make(map[string]bool, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

type pairKey struct {
	from interaction.LifelineID
	msg  interaction.MessageID
}

// messagePairs lists, for each lifeline and message it sends, the
// lifelines the interaction sends it to.
func messagePairs(sig *interaction.Signature, n *interaction.Node) map[pairKey]map[string]bool {
	out := map[pairKey]map[string]bool{}
	var walk func(n *interaction.Node)
	walk = func(n *interaction.Node) {
		if n == nil {
			return
		}
		if n.Kind == interaction.NodeMessage && n.From != nil {
			from, ok := sig.Lifeline(n.From.Text)
			msg, okm := sig.Message(n.Msg.Text)
			if ok && okm {
				k := pairKey{from, msg}
				for _, r := range n.To {
					if to, ok := sig.Lifeline(r.Text); ok { // r.Text may be an alias
						if out[k] == nil {
							out[k] = map[string]bool{}
						}
						out[k][sig.Lifelines[to]] = true
					}
				}
			}
		}
		for _, a := range n.Args {
			walk(a)
		}
	}
	walk(n)
	return out
}

// byIndex draws the events of each component from row 0, the i-th events
// of all components on row i, up to upTo[c] events of component c (all
// when upTo is nil), and returns the rows used.
func (l *traceLayout) byIndex(upTo []int) int {
	n := make([]int, len(l.r.MT.Components))
	longest := 0
	for c, comp := range l.r.MT.Components {
		n[c] = len(comp.Trace)
		if upTo != nil {
			n[c] = upTo[c]
		}
		longest = max(longest, n[c])
	}
	base, first := 0, 0
	if skip := longest - l.maxSteps; l.maxSteps > 0 && skip > 0 {
		l.note(0, "resttext", fmt.Sprintf("… the first %d events of each component not drawn", skip))
		base, first = 1, skip
	}
	for c, comp := range l.r.MT.Components {
		for i := first; i < n[c]; i++ {
			for _, a := range comp.Trace[i] {
				l.event(base+i-first, a, "event", "label")
			}
		}
	}
	return base + longest - first
}

// fail draws a Fail: the consumed part, the events where the analysis got
// stuck, the actions expected there, and a few of the events left.
func (l *traceLayout) fail() {
	e := l.r.Result.Explanation
	mt := l.r.MT
	consumed := make([]int, len(mt.Components))
	if e != nil {
		for c := range mt.Components {
			if c < len(e.Components) {
				consumed[c] = min(e.Components[c].Consumed, len(mt.Components[c].Trace))
			}
		}
	}
	var row int
	if l.r.Witness != nil {
		row = l.steps(l.r.Witness)
	} else {
		row = l.byIndex(consumed)
	}
	stuck := false
	for c, comp := range mt.Components {
		if consumed[c] < len(comp.Trace) {
			for _, a := range comp.Trace[consumed[c]] {
				l.event(row, a, "stuck", "stucktext")
			}
			stuck = true
		}
	}
	if stuck {
		l.legendAt(row, "stucktext", "stuck here")
		row++
	}
	if e != nil {
		if len(e.Expected) == 0 {
			l.legendAt(row, "expectedtext", "expected")
			l.note(row, "expectedtext", "nothing more")
			row++
		}
		for i, s := range e.Expected {
			if i == maxExpected {
				l.legendAt(row, "expectedtext", fmt.Sprintf("+%d more", len(e.Expected)-maxExpected))
				row++
				break
			}
			if i == 0 {
				l.legendAt(row, "expectedtext", "expected")
			}
			for _, a := range parseActions(l.r.Sig, s) {
				l.event(row, a, "expected", "expectedtext")
			}
			l.rows = max(l.rows, row+1)
			row++
		}
	}
	first := row
	for c, comp := range mt.Components {
		rest := comp.Trace[min(consumed[c]+1, len(comp.Trace)):]
		for i, ev := range rest {
			if i == maxRest {
				x := l.col[ev[0].Lifeline()]
				l.c.text(x+8, l.rowY(first+i)+traceRowH/2-textHeight/2, "start", "resttext", fmt.Sprintf("… %d more", len(rest)-maxRest))
				l.rows = max(l.rows, first+i+1)
				break
			}
			for _, a := range ev {
				l.event(first+i, a, "rest", "resttext")
			}
		}
	}
	if l.rows > first {
		l.legendAt(first, "resttext", "not read")
	}
}

// parseActions reads an action "a!m" or a multi-action "{a!m,b?m}" as the
// explanations write them (names quoted where needed); what it cannot read
// it leaves out.
func parseActions(sig *interaction.Signature, s string) []interaction.Action {
	m, err := sig.ParseMultiAction(strings.TrimSpace(s))
	if err != nil {
		return nil
	}
	return m
}
