package diagram

import (
	"fmt"
	"strings"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/syntax"
)

// notation is what the writers of the two notations do differently; the
// tree walk, and the annotations that carry what the notations cannot say,
// are writer's.
type notation struct {
	begin, finish string // the first and last lines ("sequenceDiagram", "@enduml")
	indent        string // per depth
	depth         int    // of the statements of the diagram
	comment       string // starts an annotation line ("%%", "'")
	title         func(s string) string
	participant   func(id, name string) string
	// envIn and envOut name the environment at each end of an arrow;
	// envParticipants declares them when the notation needs participants
	// for them (Mermaid), "" when it draws the border itself (PlantUML).
	envIn, envOut   string
	envParticipants func(in bool) string
	arrow           func(from, to string, synch bool, label string) string
	note            func(over, text string) string
	// group opens a block of no meaning (the operand of a strict that has
	// several statements), and strict the block of a strict.
	group, strict string
	parSep        string // the separator of par operands: "and", "else"
	text          func(s string) string
}

// writer writes an interaction in a notation.
type writer struct {
	*notation
	sig         *interaction.Signature
	b           *strings.Builder
	found, lost bool // messages from, to the environment
}

// format writes the interaction n over sig in the notation nt.
func format(nt *notation, sig *interaction.Signature, n *interaction.Node, title string) string {
	w := &writer{notation: nt, sig: sig, b: &strings.Builder{}}
	w.scanEnv(n)
	w.b.WriteString(nt.begin + "\n")
	depth := nt.depth
	if title != "" {
		w.line(depth, "%s", nt.title(title))
	}
	if w.found && nt.envParticipants != nil {
		w.line(depth, "%s ivc: env", nt.comment)
		w.line(depth, "%s", nt.envParticipants(true))
	}
	for i, name := range sig.Lifelines {
		w.line(depth, "%s", nt.participant(fmt.Sprintf("L%d", i), nt.text(name)))
	}
	for i, name := range sig.Gates {
		w.line(depth, "%s ivc: gate", nt.comment)
		w.line(depth, "%s", nt.participant(fmt.Sprintf("G%d", i), nt.text(name)))
	}
	if w.lost && nt.envParticipants != nil {
		w.line(depth, "%s ivc: env", nt.comment)
		w.line(depth, "%s", nt.envParticipants(false))
	}
	if unused := w.unusedMessages(n); len(unused) > 0 {
		w.line(depth, "%s ivc: declare(%s)", nt.comment, strings.Join(unused, ", "))
	}
	w.node(n, depth)
	if nt.finish != "" {
		w.b.WriteString(nt.finish + "\n")
	}
	return w.b.String()
}

// scanEnv finds whether the environment needs participants.
func (w *writer) scanEnv(n *interaction.Node) {
	walk(n, func(n *interaction.Node) {
		if n.Kind != interaction.NodeMessage {
			return
		}
		w.found = w.found || n.From == nil
		w.lost = w.lost || n.ToEnv
	})
}

// unusedMessages returns the messages of the signature that n does not
// use, as annotations write them: the reader declares them, so that the
// signature reads back whole.
func (w *writer) unusedMessages(n *interaction.Node) []string {
	used := make([]bool, len(w.sig.Messages))
	see := func(name string) {
		if m, ok := w.sig.Message(name); ok {
			used[m] = true
		}
	}
	walk(n, func(n *interaction.Node) {
		if n.Kind == interaction.NodeMessage {
			see(n.Msg.Text)
		}
		for _, a := range n.Sync {
			see(a.Msg.Text)
		}
	})
	var names []string
	for m, u := range used {
		if !u {
			names = append(names, syntax.QuoteName(w.sig.Messages[m]))
		}
	}
	return names
}

// id is the participant of a lifeline or gate, or of the environment at
// the sending (from) or receiving end.
func (w *writer) id(name string, from bool) string {
	if l, ok := w.sig.Lifeline(name); ok {
		return fmt.Sprintf("L%d", l)
	}
	for i, g := range w.sig.Gates {
		if g == name {
			return fmt.Sprintf("G%d", i)
		}
	}
	if from {
		return w.envIn
	}
	return w.envOut
}

// message is the name of a message as the signature declares it (a .hif
// may use its alias).
func (w *writer) message(name string) string {
	if m, ok := w.sig.Message(name); ok {
		return w.sig.Messages[m]
	}
	return name
}

func (w *writer) line(depth int, format string, args ...any) {
	w.b.WriteString(strings.Repeat(w.indent, depth))
	fmt.Fprintf(w.b, format, args...)
	w.b.WriteByte('\n')
}

// annotate writes the annotation "ivc: text" before a statement.
func (w *writer) annotate(depth int, text string) {
	w.line(depth, "%s ivc: %s", w.comment, text)
}

// over names the participants a note spans: the first and last lifelines
// n occurs on.
func (w *writer) over(n *interaction.Node) string {
	lo, hi := -1, -1
	see := func(name string) {
		if l, ok := w.sig.Lifeline(name); ok {
			if lo < 0 || int(l) < lo {
				lo = int(l)
			}
			hi = max(hi, int(l))
		}
	}
	walk(n, func(n *interaction.Node) {
		if n.From != nil {
			see(n.From.Text)
		}
		for _, r := range n.To {
			see(r.Text)
		}
		for _, a := range n.Acts {
			see(a.Lifeline.Text)
		}
	})
	switch {
	case lo < 0:
		return "L0"
	case lo == hi:
		return fmt.Sprintf("L%d", lo)
	}
	return fmt.Sprintf("L%d,L%d", lo, hi)
}

// node writes n at depth.
func (w *writer) node(n *interaction.Node, depth int) {
	switch n.Kind {
	case interaction.NodeEmpty:
		if len(w.sig.Lifelines) > 0 {
			w.line(depth, "%s", w.note("L0", "∅"))
		}
	case interaction.NodeMessage:
		w.messageArrows(n, depth)
	case interaction.NodeAct:
		w.line(depth, "%s", w.note(w.over(n), w.text(interaction.ActionsLabel(n.Acts))))
	case interaction.NodeLoop:
		if n.Op != interaction.OpLoopW {
			w.annotate(depth, n.Op.String())
		}
		w.line(depth, "loop %s", n.Op)
		w.node(n.Args[0], depth+1)
		w.line(depth, "end")
	case interaction.NodeOp:
		switch n.Op {
		case interaction.OpSeq:
			for _, a := range n.Args {
				w.node(a, depth)
			}
		case interaction.OpStrict:
			w.annotate(depth, "strict")
			w.line(depth, "%s", w.strict)
			w.line(depth+1, "%s", w.note(w.over(n), "strict"))
			for _, a := range n.Args {
				w.operand(a, depth+1)
			}
			w.line(depth, "end")
		case interaction.OpAlt:
			w.sections(n, depth, "alt", "else")
		default:
			w.sections(n, depth, "par", w.parSep)
		}
	case interaction.NodeCoreg:
		var ids []string
		for _, c := range n.Coreg {
			ids = append(ids, w.id(c.Text, false))
		}
		w.annotate(depth, "coreg("+strings.Join(ids, ",")+")")
		w.sections(n, depth, "par "+w.text(n.OperatorLabel()), w.parSep)
	case interaction.NodeSync:
		acts := make([]string, len(n.Sync))
		for i, a := range n.Sync {
			k := "?"
			if a.Kind == interaction.Emission {
				k = "!"
			}
			acts[i] = w.id(a.Lifeline.Text, false) + k + syntax.QuoteName(w.message(a.Msg.Text))
		}
		w.annotate(depth, "sync{"+strings.Join(acts, ",")+"}")
		w.sections(n, depth, "par "+w.text(n.OperatorLabel()), w.parSep)
	}
}

// sections writes a block whose operands are separated by sep.
func (w *writer) sections(n *interaction.Node, depth int, open, sep string) {
	w.line(depth, "%s", open)
	for i, a := range n.Args {
		if i > 0 {
			w.line(depth, "%s", sep)
		}
		w.node(a, depth+1)
	}
	w.line(depth, "end")
}

// operand writes an operand of a strict, whose operands are its
// statements: a seq, which takes several, goes in a block of its own.
func (w *writer) operand(n *interaction.Node, depth int) {
	if n.Kind != interaction.NodeOp || n.Op != interaction.OpSeq {
		w.node(n, depth)
		return
	}
	w.line(depth, "%s", w.group)
	w.node(n, depth+1)
	w.line(depth, "end")
}

// messageArrows writes a message: one arrow per receiver, the first with
// the annotations it needs (synch, message for an arrow to its sender),
// the others annotated broadcast.
func (w *writer) messageArrows(n *interaction.Node, depth int) {
	from := w.id("", true)
	if n.From != nil {
		from = w.id(n.From.Text, true)
	}
	label := w.text(w.message(n.Msg.Text))
	to := n.To
	if n.ToEnv {
		to = append(to[:len(to):len(to)], interaction.Name{})
	}
	for i, r := range to {
		t := w.id(r.Text, false)
		switch {
		case i > 0:
			w.annotate(depth, "broadcast")
		case n.Synch:
			w.annotate(depth, "synch")
		}
		if t == from && i == 0 {
			w.annotate(depth, "message")
		}
		w.line(depth, "%s", w.arrow(from, t, n.Synch, label))
	}
}
