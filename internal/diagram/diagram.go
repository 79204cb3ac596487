package diagram

import (
	"fmt"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/syntax"
)

// Notation is the language a diagram is written in.
type Notation uint8

const (
	Mermaid  Notation = iota + 1 // a Mermaid sequenceDiagram
	PlantUML                     // a PlantUML sequence diagram
)

func (n Notation) String() string {
	if n == PlantUML {
		return "PlantUML"
	}
	return "Mermaid"
}

// Options are the choices of reading a diagram that its text does not make.
type Options struct {
	// SelfMessages reads a self-message (A->>A: work) as the message
	// A -- work -> A, whose two actions a trace must then hold. By
	// default a self-message is a note: internal work that traces hold
	// no event for.
	SelfMessages bool
}

// Diagram is a sequence diagram read as an interaction.
type Diagram struct {
	File     string // the file, as errors name it (without a #selector)
	Notation Notation
	// Participants are the lifelines, gates and environment participants,
	// in order of appearance (declared, or implied by an arrow).
	Participants []Participant
	// Messages are the arrows read as messages, in source order; the
	// arrows of a broadcast share their Node.
	Messages []Message
	// Root is the interaction, with the participants' ids as lifeline
	// names (the derived signature declares them as aliases; see Bind for
	// a signature of one's own).
	Root *interaction.Node
	// Warnings are what the reading approximated, each at its position
	// ("warning: ..."): the self-messages read as notes, critical regions.
	Warnings []error

	declared []interaction.Name // the messages of ivc: declare(...)
}

// ParticipantKind says what a participant stands for.
type ParticipantKind uint8

const (
	Lifeline    ParticipantKind = iota
	Gate                        // a gate (annotated ivc: gate)
	Environment                 // the diagram's border (annotated ivc: env; PlantUML's [ and ])
)

// Participant is a participant of a diagram.
type Participant struct {
	ID   string // how the arrows name it
	Name string // the lifeline's (or gate's) name: the display name, or the ID
	Kind ParticipantKind
	// Shape is the keyword that declared it (participant, actor,
	// database, ...), "" for a participant implied by an arrow.
	Shape string
	// Box is the label of the box it is drawn in ("" for none). A box is
	// only visual: it groups lifelines on the page, not on a clock (give
	// ivc the lifelines that share a clock with --locations).
	Box string
	Pos syntax.Pos
}

// Message is an arrow read as a message.
type Message struct {
	Node  *interaction.Node // its node in Root (a NodeMessage)
	Arrow string            // the arrow as written: "->>", "-->>", "<-", "return", ...
	// Reply reports a dashed arrow or a PlantUML return: what diagrams
	// draw, by convention, for the answer to a call.
	Reply bool
	Pos   syntax.Pos
}

// Read reads the sequence diagram of a file: name is the file's name, with
// a #selector when it holds several diagrams (design.md#checkout-flow,
// design.md#2; see the package documentation), and src its content. The
// notation is chosen by the extension (see Extensions). Errors are
// *syntax.Error values naming the file and its line:col (a Markdown file's
// own lines), or errors naming the file when the selector finds no diagram.
func Read(name string, src []byte, opt Options) (*Diagram, error) {
	file, sel := SplitSelector(name)
	blk, err := selectBlock(file, src, sel)
	if err != nil {
		return nil, err
	}
	b := newBuilder(file, src, blk.notation, opt)
	switch blk.notation {
	case PlantUML:
		err = readPlantUML(b, blk)
	default:
		err = readMermaid(b, blk)
	}
	if err != nil {
		return nil, err
	}
	return b.finish(blk)
}

// SigFile returns the signature the diagram declares: its lifelines, with
// their ids as aliases when they differ from their names, the texts of its
// messages, and its gates, each at its position in the diagram.
// interaction.SigFile.Signature builds it, and reports the names declared
// twice (two participants drawn with the same name).
func (d *Diagram) SigFile() *interaction.SigFile {
	var lls, gates interaction.SigSection
	lls.Kind, gates.Kind = "lifeline", "gate"
	aliased := false
	for _, p := range d.Participants {
		switch p.Kind {
		case Lifeline:
			lls.Names = append(lls.Names, interaction.Name{Text: p.ID, Pos: p.Pos})
			var text interaction.Name
			if p.Name != p.ID {
				text, aliased = interaction.Name{Text: p.Name, Pos: p.Pos}, true
			}
			lls.Texts = append(lls.Texts, text)
		case Gate:
			gates.Names = append(gates.Names, interaction.Name{Text: p.Name, Pos: p.Pos})
		}
	}
	if !aliased {
		lls.Texts = nil
	}
	msgs := interaction.SigSection{Kind: "message"}
	seen := map[string]bool{}
	add := func(n interaction.Name) {
		if !seen[n.Text] {
			seen[n.Text] = true
			msgs.Names = append(msgs.Names, n)
		}
	}
	for _, m := range d.declared {
		add(m)
	}
	walk(d.Root, func(n *interaction.Node) {
		if n.Kind == interaction.NodeMessage {
			add(n.Msg)
		}
		for _, a := range n.Sync {
			add(a.Msg)
		}
	})
	f := &interaction.SigFile{Sections: []interaction.SigSection{lls, msgs}}
	if len(gates.Names) > 0 {
		f.Sections = append(f.Sections, gates)
	}
	return f
}

// Bind renames the lifelines of Root for sig, a signature of one's own (a
// .hsf beside the diagram): a participant is named by its display name
// when sig declares it (by name or alias), else by its id, so that an
// arrow from the participant GW as "API Gateway" finds the lifeline "API
// Gateway".
func (d *Diagram) Bind(sig *interaction.Signature) {
	names := map[string]string{}
	for _, p := range d.Participants {
		if p.Kind != Lifeline || p.Name == p.ID {
			continue
		}
		if _, ok := sig.Lifeline(p.Name); ok {
			names[p.ID] = p.Name
		}
	}
	rename := func(n *interaction.Name) {
		if to, ok := names[n.Text]; ok {
			n.Text = to
		}
	}
	walk(d.Root, func(n *interaction.Node) {
		if n.From != nil {
			rename(n.From)
		}
		for i := range n.To {
			rename(&n.To[i])
		}
		for i := range n.Coreg {
			rename(&n.Coreg[i])
		}
		for i := range n.Sync {
			rename(&n.Sync[i].Lifeline)
		}
	})
}

// walk calls f on every node of the tree n, without recursion: a diagram
// nests its blocks as deeply as interaction.MaxNesting.
func walk(n *interaction.Node, f func(*interaction.Node)) {
	stack := []*interaction.Node{n}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		f(n)
		for i := len(n.Args) - 1; i >= 0; i-- {
			stack = append(stack, n.Args[i])
		}
	}
}

// errorf returns a *syntax.Error of file at pos.
func errorf(file string, pos syntax.Pos, format string, args ...any) error {
	return &syntax.Error{File: file, Pos: pos, Msg: fmt.Sprintf(format, args...)}
}
