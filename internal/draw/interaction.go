package draw

import (
	"strings"

	"github.com/ivc-project/ivc/interaction"
)

// Vertical metrics of sequence diagrams, in pixels.
const (
	margin    = 10 // around the drawing
	tabHeight = 18 // a frame's operator tab
	headH     = 26 // a lifeline's name box
	rowH      = 30 // a message: its label, then its arrow
	gateH     = 14 // under an arrow, the name of a gate at a border
	selfH     = 42 // a message to its own sender: label, then a loop
	emptyH    = 22 // ∅ as an operand
	opGap     = 8  // between a frame's tab and its first operand, around separators, under the last
	pad       = 10 // between a frame and what it holds, horizontally
)

// Options are the settings of a drawing.
type Options struct {
	// Title names the drawing: the sd frame's tab of an interaction, the
	// heading of a multi-trace.
	Title string
	// MaxSteps, when positive, caps the rows of a multi-trace's events: only
	// the last MaxSteps steps before its end (or where the analysis got
	// stuck) are drawn, with a note of how many are not.
	MaxSteps int
}

// InteractionSVG draws an interaction as a UML sequence diagram in SVG, from
// its syntax tree n (spec.Spec.Syntax, as written, or Store.Syntax of a
// term) over sig: the lifelines of sig as columns, in declaration order,
// with their names on top; each message as an arrow labelled with it, from
// its sender to each receiver (a broadcast has several arrowheads), open
// for asynchronous messages and filled, on a thicker line, for <synch>
// ones; the environment and gates at the borders of the sd frame (a found
// message starts at a dot on the left border, a lost one ends at a dot on
// the right one, a gate is named there); and each operator as a combined
// fragment, a frame with the operator in its tab and dashed lines between
// its operands: strict, seq, par, alt, coreg(L) (with brackets on the
// lifelines of L), sync(A), loopS, loopH, loopW and loopP. A seq at the root
// is the sd frame itself (UML's default weak sequencing) and draws no frame
// of its own.
//
// The output is one self-contained SVG document (no external font, image
// or script), deterministic, with labels that never overlap: the width grows
// with the lifelines and the widest name, the height with the messages.
func InteractionSVG(sig *interaction.Signature, n *interaction.Node, opt Options) []byte {
	l := newSeqLayout(sig, n)
	l.draw(opt.Title)
	return l.c.svg(titleOr(opt.Title, "interaction"))
}

func titleOr(t, def string) string {
	if t == "" {
		return def
	}
	return t
}

// seqLayout lays out a sequence diagram in two passes: horizontally, the
// extent of every node (bottom-up, so that each frame holds its operands
// with room to spare), then vertically, drawing top-down.
type seqLayout struct {
	sig   *interaction.Signature
	c     canvas
	gap   int // between lifelines
	dx    int // x of lifeline 0
	ext   map[*interaction.Node]span
	left  int // the left border (the environment)
	right int // the right border
	root  *interaction.Node
}

// span is a horizontal extent, relative to lifeline 0 until dx is known.
type span struct{ x0, x1 int }

func (s span) union(t span) span {
	if s.x0 > s.x1 {
		return t
	}
	if t.x0 > t.x1 {
		return s
	}
	return span{min(s.x0, t.x0), max(s.x1, t.x1)}
}

var emptySpan = span{1, 0}

func newSeqLayout(sig *interaction.Signature, root *interaction.Node) *seqLayout {
	l := &seqLayout{sig: sig, ext: map[*interaction.Node]span{}, root: root}
	l.gap = 90
	for _, name := range sig.Lifelines {
		l.gap = max(l.gap, headWidth(name)+16)
	}
	whole := l.extent(root, true)
	for i, name := range sig.Lifelines {
		x := i * l.gap
		whole = whole.union(span{x - headWidth(name)/2, x + headWidth(name)/2})
	}
	if whole.x0 > whole.x1 {
		whole = span{0, 0}
	}
	border := 40
	for _, g := range sig.Gates {
		border = max(border, textWidth(g)+16)
	}
	l.dx = margin - whole.x0 + border
	l.left = margin
	l.right = whole.x1 + l.dx + border
	return l
}

// headWidth is the width of a lifeline's name box.
func headWidth(name string) int { return max(50, textWidth(name)+16) }

// col returns the x of a lifeline, relative to lifeline 0 (add dx).
func (l *seqLayout) col(name string) (int, bool) {
	id, ok := l.sig.Lifeline(name)
	return int(id) * l.gap, ok
}

// endpoints returns the x of the lifelines of a message (sender first,
// when it is one), and whether it comes from or goes to the environment
// or a gate.
func (l *seqLayout) endpoints(n *interaction.Node) (from int, hasFrom bool, to []int, found, lost bool) {
	if n.From != nil {
		from, hasFrom = l.col(n.From.Text)
	}
	found = !hasFrom
	lost = n.ToEnv
	for _, r := range n.To {
		if x, ok := l.col(r.Text); ok {
			to = append(to, x)
		} else {
			lost = true
		}
	}
	return
}

// messageLabel places a message's label: centered over its lifelines, or,
// from or to a border, beside its one lifeline.
func (l *seqLayout) messageLabel(n *interaction.Node) (x int, anchor string) {
	from, hasFrom, to, found, _ := l.endpoints(n)
	xs := to
	if hasFrom {
		xs = append([]int{from}, to...)
	}
	if len(xs) == 0 {
		return 0, "start"
	}
	lo, hi := xs[0], xs[0]
	for _, x := range xs {
		lo, hi = min(lo, x), max(hi, x)
	}
	switch {
	case lo < hi:
		return (lo + hi) / 2, "middle"
	case found:
		return lo - 8, "end"
	default:
		return lo + 8, "start"
	}
}

func labelSpan(x int, anchor, s string) span {
	w := textWidth(s)
	switch anchor {
	case "middle":
		return span{x - w/2, x - w/2 + w}
	case "end":
		return span{x - w, x}
	}
	return span{x, x + w}
}

// isSelf reports whether a message goes from a lifeline to itself only.
func isSelf(n *interaction.Node) bool {
	return n.From != nil && len(n.To) == 1 && n.To[0].Text == n.From.Text
}

// extent computes the horizontal extent of n and of every node below it.
func (l *seqLayout) extent(n *interaction.Node, root bool) span {
	s := emptySpan
	switch n.Kind {
	case interaction.NodeEmpty:
	case interaction.NodeMessage:
		from, hasFrom, to, _, _ := l.endpoints(n)
		if hasFrom {
			s = s.union(span{from, from})
		}
		for _, x := range to {
			s = s.union(span{x, x})
		}
		if isSelf(n) {
			s = s.union(span{from, from + max(36, 8+textWidth(n.Msg.Text))})
			s = s.union(labelSpan(from+8, "start", n.Msg.Text))
		} else {
			x, anchor := l.messageLabel(n)
			s = s.union(labelSpan(x, anchor, n.Msg.Text))
		}
	case interaction.NodeAct:
		for _, a := range n.Acts {
			if x, ok := l.col(a.Lifeline.Text); ok {
				s = s.union(span{x - 6, x + 6})
			}
		}
		if s.x0 <= s.x1 {
			label := interaction.ActionsLabel(n.Acts)
			s = s.union(labelSpan((s.x0+s.x1)/2, "middle", label))
		}
	default:
		for _, a := range n.Args {
			s = s.union(l.extent(a, false))
		}
		if root && n.Kind == interaction.NodeOp && n.Op == interaction.OpSeq {
			break // the sd frame
		}
		if s.x0 > s.x1 {
			s = span{0, 0}
		}
		s = span{s.x0 - pad, s.x1 + pad}
		s.x1 = max(s.x1, s.x0+textWidth(n.OperatorLabel())+24)
	}
	l.ext[n] = s
	return s
}

// draw lays the diagram out top-down.
func (l *seqLayout) draw(title string) {
	c := &l.c
	sd := "sd"
	if title != "" {
		sd += " " + title
	}
	l.right = max(l.right, l.left+textWidth(sd)+24) // room for the tab
	headY := margin + tabHeight + 8
	for i, name := range l.sig.Lifelines {
		x := l.dx + i*l.gap
		w := headWidth(name)
		c.rect(box{x - w/2, headY, x - w/2 + w, headY + headH}, "head")
		c.text(x, headY+(headH-textHeight)/2, "middle", "name", name)
	}
	y := headY + headH + 14
	whole := span{l.left, l.right}
	if r := l.root; r.Kind == interaction.NodeOp && r.Op == interaction.OpSeq {
		for _, a := range r.Args {
			y = l.node(a, y, whole)
		}
	} else {
		y = l.node(r, y, whole)
	}
	bottom := y + 10
	for i := range l.sig.Lifelines {
		x := l.dx + i*l.gap
		c.line(x, headY+headH, x, bottom, "lifeline")
	}
	c.frame(box{l.left, margin, l.right, bottom + 10}, sd, "sd")
	c.width, c.height = l.right+margin, bottom+10+margin
}

// node draws n from y down, within the horizontal extent of the frame
// around it, and returns the y under it.
func (l *seqLayout) node(n *interaction.Node, y int, within span) int {
	c := &l.c
	switch n.Kind {
	case interaction.NodeEmpty:
		c.text(within.x0+pad, y+4, "start", "empty", "∅")
		return y + emptyH
	case interaction.NodeMessage:
		return l.message(n, y)
	case interaction.NodeAct:
		s := l.ext[n]
		x0, x1 := s.x0+l.dx, s.x1+l.dx
		c.text((x0+x1)/2, y, "middle", "label", interaction.ActionsLabel(n.Acts))
		var xs []int
		for _, a := range n.Acts {
			if x, ok := l.col(a.Lifeline.Text); ok {
				xs = append(xs, x+l.dx)
			}
		}
		if len(xs) > 0 {
			lo, hi := xs[0], xs[0]
			for _, x := range xs {
				lo, hi = min(lo, x), max(hi, x)
			}
			c.line(lo, y+20, hi, y+20, "synch")
			for _, x := range xs {
				c.dot(x, y+20, 4, "event")
			}
		}
		return y + rowH
	}
	s := l.ext[n]
	b := box{s.x0 + l.dx, y, s.x1 + l.dx, 0}
	cy := y + tabHeight + opGap
	for i, a := range n.Args {
		cy = l.node(a, cy, span{b.x0, b.x1})
		if i < len(n.Args)-1 {
			c.line(b.x0, cy+opGap/2, b.x1, cy+opGap/2, "sep")
			cy += opGap
		}
	}
	b.y1 = cy + opGap
	c.frame(b, n.OperatorLabel(), strings.ToLower(n.Op.String()))
	for _, name := range n.Coreg {
		if x, ok := l.col(name.Text); ok {
			c.rect(box{x + l.dx - 5, y + tabHeight + 2, x + l.dx + 5, b.y1 - 2}, "coreg")
		}
	}
	return b.y1
}

// message draws a message: its label, then its arrows.
func (l *seqLayout) message(n *interaction.Node, y int) int {
	c := &l.c
	from, hasFrom, to, _, _ := l.endpoints(n)
	class, marker := "msg", "open"
	if n.Synch {
		class, marker = "synch", "filled"
	}
	if isSelf(n) {
		x := from + l.dx
		c.text(x+8, y, "start", "label", n.Msg.Text)
		c.add(`<polyline points="%d,%d %d,%d %d,%d %d,%d" fill="none" class="%s" marker-end="url(#%s)"/>`,
			x, y+18, x+30, y+18, x+30, y+32, x, y+32, class, marker)
		return y + selfH
	}
	lx, anchor := l.messageLabel(n)
	c.text(lx+l.dx, y, anchor, "label", n.Msg.Text)
	ay := y + 20
	h := rowH
	sx := l.left
	if hasFrom {
		sx = from + l.dx
	} else {
		c.dot(sx, ay, 4, "env")
		if n.From != nil {
			c.text(sx+6, ay+4, "start", "gate", n.From.Text)
			h = rowH + gateH
		}
	}
	for _, x := range to {
		if x+l.dx == sx {
			c.add(`<polyline points="%d,%d %d,%d %d,%d" fill="none" class="%s" marker-end="url(#%s)"/>`,
				sx, ay, sx+24, ay, sx+24, ay+8, class, marker)
			continue
		}
		c.arrow(sx, ay, x+l.dx, ay, class, marker)
	}
	var gates []string
	for _, r := range n.To {
		if _, ok := l.col(r.Text); !ok {
			gates = append(gates, r.Text)
		}
	}
	if n.ToEnv || len(gates) > 0 {
		c.arrow(sx, ay, l.right, ay, class, marker)
		c.dot(l.right, ay, 4, "env")
		if len(gates) > 0 {
			c.text(l.right-6, ay+4, "end", "gate", strings.Join(gates, ","))
			h = rowH + gateH
		}
	}
	return y + h
}
