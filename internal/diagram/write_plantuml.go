package diagram

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/ivc-project/ivc/interaction"
)

// PlantUMLHelp says how FormatPlantUML writes what PlantUML cannot draw
// exactly (ivc draw prints it in its help).
const PlantUMLHelp = `PlantUML has no exact equivalent of some operators; ivc writes them as
below, with a comment ' ivc: ... (which PlantUML ignores) that makes ivc
read the diagram back as the same interaction:
  seq              the operands one after the other (weak sequencing, as
                   UML's)
  strict           group strict, with a note over the lifelines, operands
                   in order (' ivc: strict); an operand of several
                   statements in a group seq of its own
  alt, par         alt/else, par/else
  coreg(L)         par/else labelled "coreg(L)" (' ivc: coreg(L))
  sync(A)          par/else labelled "sync(A)" (' ivc: sync{A})
  loopS/H/P        loop labelled with the kind (' ivc: loopS); loopW, as
                   UML's loop, has no annotation
  ∅                a note "∅"
  found, lost      [-> and ->] (from and to the border)
  gates            participants (' ivc: gate)
  <synch>          a filled arrow -> (' ivc: synch; asynchronous messages
                   are ->>)
  broadcast        one arrow per receiver (' ivc: broadcast)
Participants are the lifelines, in declaration order; messages that the
interaction does not use are declared (' ivc: declare(m1,m2)).`

// FormatPlantUML writes an interaction as a PlantUML sequence diagram:
// the lifelines of sig as participants, messages as arrows, operators as
// PlantUML's groups; see PlantUMLHelp for the approximations. n is the
// interaction's syntax tree, title the diagram's title ("" for none). The
// output is deterministic, and Read reads it back as the same interaction
// over the same names.
func FormatPlantUML(sig *interaction.Signature, n *interaction.Node, title string) string {
	return format(&plantUMLNotation, sig, n, title)
}

var plantUMLNotation = notation{
	begin:   "@startuml",
	finish:  "@enduml",
	indent:  "  ",
	comment: "'",
	title:   func(s string) string { return "title " + plantUMLText(s) },
	participant: func(id, name string) string {
		return fmt.Sprintf(`participant "%s" as %s`, strings.ReplaceAll(name, `"`, "&#34;"), id)
	},
	envIn:  "[",
	envOut: "]",
	arrow: func(from, to string, synch bool, label string) string {
		a := "->>"
		if synch {
			a = "->"
		}
		switch {
		case from == "[":
			return fmt.Sprintf("[%s %s : %s", a, to, label)
		case to == "]":
			return fmt.Sprintf("%s %s] : %s", from, a, label)
		}
		return fmt.Sprintf("%s %s %s : %s", from, a, to, label)
	},
	note:   func(over, text string) string { return fmt.Sprintf("note over %s : %s", over, text) },
	group:  "group seq",
	strict: "group strict",
	parSep: "else",
	text:   plantUMLText,
}

// plantUMLText escapes what the reader decodes as an entity (&amp;, &#59;)
// and the spaces at either end of a label, which it trims.
func plantUMLText(s string) string {
	s = entityLike.ReplaceAllStringFunc(s, func(e string) string { return "&#38;" + e[1:] })
	if t := strings.TrimLeft(s, " "); len(t) < len(s) {
		s = strings.Repeat("&#32;", len(s)-len(t)) + t
	}
	if t := strings.TrimRight(s, " "); len(t) < len(s) {
		s = t + strings.Repeat("&#32;", len(s)-len(t))
	}
	return s
}

var entityLike = regexp.MustCompile(`&(#[0-9]+|#[xX][0-9a-fA-F]+|[a-zA-Z][a-zA-Z0-9]*);`)
