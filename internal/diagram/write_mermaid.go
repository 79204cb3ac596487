package diagram

import (
	"fmt"
	"strings"

	"github.com/ivc-project/ivc/interaction"
)

// MermaidHelp says how FormatMermaid writes what Mermaid cannot draw
// exactly (ivc draw prints it in its help).
const MermaidHelp = `Mermaid has no exact equivalent of some operators; ivc writes them as
below, with a comment %% ivc: ... (which Mermaid ignores) that makes ivc
read the diagram back as the same interaction:
  seq              the operands one after the other (Mermaid's order, like
                   UML's, is weak sequencing)
  strict           rect with a note "strict" over the lifelines, operands
                   in order (%% ivc: strict); an operand of several
                   statements in a rect of its own
  alt, par         alt/else, par/and
  coreg(L)         par/and labelled "coreg(L)" (%% ivc: coreg(L)): exact on
                   L, where coreg interleaves, looser elsewhere, where it
                   orders weakly
  sync(A)          par/and labelled "sync(A)" (%% ivc: sync{A})
  loopS/H/P        loop labelled with the kind (%% ivc: loopS); loopW, as
                   UML's loop, has no annotation
  ∅                a note "∅"
  found, lost      messages from and to a participant "[env]" at each end
                   (%% ivc: env)
  gates            participants (%% ivc: gate)
  <synch>          a solid arrow ->> (%% ivc: synch; asynchronous messages
                   are -) )
  broadcast        one arrow per receiver (%% ivc: broadcast)
Participants are the lifelines, in declaration order; messages that the
interaction does not use are declared (%% ivc: declare(m1,m2)).`

// FormatMermaid writes an interaction as a Mermaid sequenceDiagram, which
// GitHub and GitLab render in Markdown: the lifelines of sig as
// participants, messages as arrows, operators as Mermaid's blocks; see
// MermaidHelp for the approximations. n is the interaction's syntax tree,
// title the diagram's title ("" for none). The output is deterministic,
// and Read reads it back as the same interaction over the same names.
func FormatMermaid(sig *interaction.Signature, n *interaction.Node, title string) string {
	return format(&mermaidNotation, sig, n, title)
}

var mermaidNotation = notation{
	begin:   "sequenceDiagram",
	indent:  "    ",
	depth:   1,
	comment: "%%",
	title:   func(s string) string { return "title " + mermaidText(s) },
	participant: func(id, name string) string {
		return fmt.Sprintf("participant %s as %s", id, name)
	},
	envIn:  "envin",
	envOut: "envout",
	envParticipants: func(in bool) string {
		if in {
			return "participant envin as [env]"
		}
		return "participant envout as [env]"
	},
	arrow: func(from, to string, synch bool, label string) string {
		a := "-)"
		if synch {
			a = "->>"
		}
		return fmt.Sprintf("%s%s%s: %s", from, a, to, label)
	},
	note:   func(over, text string) string { return fmt.Sprintf("Note over %s: %s", over, text) },
	group:  "rect rgba(0,0,0,0)",
	strict: "rect rgba(128,128,128,0.1)",
	parSep: "and",
	text:   mermaidText,
}

// mermaidText escapes what Mermaid's parser reads in labels: ';' ends a
// statement, '#' starts an entity, "%%" a comment, a line break ends the
// label, '<', '>' and '&' would open HTML tags and entities, which Mermaid
// renders (a quoted name such as "<b>x</b>" is text), spaces at either end are trimmed, and
// ':' would make "wrap:" at the start of a label an option.
func mermaidText(s string) string {
	s = mermaidEscaper.Replace(s)
	if t := strings.TrimLeft(s, " "); len(t) < len(s) {
		s = strings.Repeat("#32;", len(s)-len(t)) + t
	}
	if t := strings.TrimRight(s, " "); len(t) < len(s) {
		s = t + strings.Repeat("#32;", len(s)-len(t))
	}
	return s
}

var mermaidEscaper = strings.NewReplacer("#", "#35;", ";", "#59;", "\n", " ", "\r", " ", ":", "#58;",
	"<", "#lt;", ">", "#gt;", "%", "#37;", "&", "#38;")
