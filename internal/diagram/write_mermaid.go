package diagram

import (
	"fmt"
	"strings"

	"github.com/ivc-project/ivc/interaction"
)

// MermaidHelp says how FormatMermaid approximates what Mermaid cannot
// draw exactly (ivc draw prints it in its help).
const MermaidHelp = `Mermaid has no exact equivalent of some operators; ivc writes:
  seq              the operands one after the other (Mermaid's order, like
                   UML's, is weak sequencing)
  strict           rect with a note "strict" over the lifelines, operands
                   in order (Mermaid cannot say that the order is strict)
  alt, par         alt/else, par/and
  coreg(L)         par/and labelled "coreg(L)": exact on L, where coreg
                   interleaves, looser elsewhere, where it orders weakly
  sync(A)          par/and labelled "sync(A)": the synchronization is in
                   the label only
  loopS/H/W/P      loop labelled with the kind (strict, head, weak or par
                   repetition)
  ∅                a note "∅"
  found, lost      messages from and to a participant "[env]" at each end
  <synch>          a solid arrow ->> (asynchronous messages are -) )
  broadcast        one arrow per receiver, the first labelled
Participants are the lifelines, in declaration order.`

// FormatMermaid writes an interaction as a Mermaid sequenceDiagram, which
// GitHub and GitLab render in Markdown: the lifelines of sig as
// participants, messages as arrows, operators as Mermaid's blocks; see
// MermaidHelp for the approximations. n is the interaction's syntax tree,
// title the diagram's title ("" for none). The output is deterministic.
func FormatMermaid(sig *interaction.Signature, n *interaction.Node, title string) string {
	m := &mermaid{sig: sig}
	m.scanEnv(n)
	var b strings.Builder
	b.WriteString("sequenceDiagram\n")
	if title != "" {
		fmt.Fprintf(&b, "    title %s\n", mermaidText(title))
	}
	if m.found {
		b.WriteString("    participant envin as [env]\n")
	}
	for i, name := range sig.Lifelines {
		fmt.Fprintf(&b, "    participant L%d as %s\n", i, mermaidText(name))
	}
	if m.lost {
		b.WriteString("    participant envout as [env]\n")
	}
	m.b = &b
	m.node(n, 1)
	return b.String()
}

type mermaid struct {
	sig         *interaction.Signature
	b           *strings.Builder
	found, lost bool // messages from, to the environment or a gate
}

// scanEnv finds whether the environment needs participants.
func (m *mermaid) scanEnv(n *interaction.Node) {
	if n.Kind == interaction.NodeMessage {
		if n.From == nil || m.sig.IsGate(n.From.Text) {
			m.found = true
		}
		for _, r := range n.To {
			if m.sig.IsGate(r.Text) {
				m.lost = true
			}
		}
		m.lost = m.lost || n.ToEnv
	}
	for _, a := range n.Args {
		m.scanEnv(a)
	}
}

// id is a lifeline's participant, or the environment's.
func (m *mermaid) id(name string, from bool) string {
	if l, ok := m.sig.Lifeline(name); ok {
		return fmt.Sprintf("L%d", l)
	}
	if from {
		return "envin"
	}
	return "envout"
}

func (m *mermaid) line(depth int, format string, args ...any) {
	m.b.WriteString(strings.Repeat("    ", depth))
	fmt.Fprintf(m.b, format, args...)
	m.b.WriteByte('\n')
}

// over names the participants a note spans: the first and last lifelines
// n occurs on.
func (m *mermaid) over(n *interaction.Node) string {
	lo, hi := -1, -1
	var walk func(n *interaction.Node)
	see := func(name string) {
		if l, ok := m.sig.Lifeline(name); ok {
			if lo < 0 || int(l) < lo {
				lo = int(l)
			}
			hi = max(hi, int(l))
		}
	}
	walk = func(n *interaction.Node) {
		if n.From != nil {
			see(n.From.Text)
		}
		for _, r := range n.To {
			see(r.Text)
		}
		for _, a := range n.Acts {
			see(a.Lifeline.Text)
		}
		for _, a := range n.Args {
			walk(a)
		}
	}
	walk(n)
	switch {
	case lo < 0:
		return "L0"
	case lo == hi:
		return fmt.Sprintf("L%d", lo)
	}
	return fmt.Sprintf("L%d,L%d", lo, hi)
}

func (m *mermaid) node(n *interaction.Node, depth int) {
	switch n.Kind {
	case interaction.NodeEmpty:
		if len(m.sig.Lifelines) > 0 {
			m.line(depth, "Note over L0: ∅")
		}
	case interaction.NodeMessage:
		arrow := "-)"
		if n.Synch {
			arrow = "->>"
		}
		from := m.id("", true)
		if n.From != nil {
			from = m.id(n.From.Text, true)
		}
		label := mermaidText(n.Msg.Text)
		to := n.To
		if n.ToEnv {
			to = append(to[:len(to):len(to)], interaction.Name{})
		}
		for i, r := range to {
			if i > 0 {
				label = mermaidText(n.Msg.Text) + " (broadcast)"
			}
			m.line(depth, "%s%s%s: %s", from, arrow, m.id(r.Text, false), label)
		}
	case interaction.NodeAct:
		m.line(depth, "Note over %s: %s", m.over(n), mermaidText(actsLabel(n.Acts)))
	case interaction.NodeLoop:
		m.line(depth, "loop %s", n.Op)
		m.node(n.Args[0], depth+1)
		m.line(depth, "end")
	default:
		var open, sep string
		switch {
		case n.Kind == interaction.NodeOp && n.Op == interaction.OpSeq:
			for _, a := range n.Args {
				m.node(a, depth)
			}
			return
		case n.Kind == interaction.NodeOp && n.Op == interaction.OpStrict:
			m.line(depth, "rect rgba(128,128,128,0.1)")
			m.line(depth+1, "Note over %s: strict", m.over(n))
			for _, a := range n.Args {
				m.node(a, depth+1)
			}
			m.line(depth, "end")
			return
		case n.Kind == interaction.NodeOp && n.Op == interaction.OpAlt:
			open, sep = "alt", "else"
		case n.Kind == interaction.NodeOp:
			open, sep = "par", "and"
		default: // coreg, sync
			open, sep = "par "+mermaidText(operatorLabel(n)), "and"
		}
		m.line(depth, "%s", open)
		for i, a := range n.Args {
			if i > 0 {
				m.line(depth, "%s", sep)
			}
			m.node(a, depth+1)
		}
		m.line(depth, "end")
	}
}

// mermaidText escapes what Mermaid's parser reads in labels: ';' ends a
// statement, '#' starts an entity, a line break ends the label, and '<'
// and '>' would open HTML tags, which Mermaid renders (a quoted name such
// as "<b>x</b>" is text).
func mermaidText(s string) string { return mermaidEscaper.Replace(s) }

var mermaidEscaper = strings.NewReplacer("#", "#35;", ";", "#59;", "\n", " ", "\r", " ", ":", "#58;",
	"<", "#lt;", ">", "#gt;")
