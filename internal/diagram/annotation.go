package diagram

import (
	"fmt"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/scan"
	"github.com/ivc-project/ivc/syntax"
)

// An annotation is a comment that starts with "ivc:" (%% ivc: ... in
// Mermaid, ' ivc: ... in PlantUML): the notations ignore it, and it carries
// what they cannot say. Names in it are written as in .hif files, bare or
// quoted ("GET /x"); lifelines by their participant's id or name.
//
//	strict, coreg(a,b), sync(a!m) or sync{a!m,b?m}
//	                  the block that follows (rect, group, par, alt, critical)
//	                  is this operator over its operands: its sections, or
//	                  the statements of its body when it has no separator
//	loopS, loopH, loopW, loopP
//	                  the loop that follows is of this kind (loopW without)
//	synch             the arrow that follows is a synchronous message
//	broadcast         the arrow that follows is the message of the arrow
//	                  before it (same sender, same text), to one more receiver
//	message           the self-message that follows is a message, not a note
//	gate, env         the participant that follows is a gate, or the
//	                  environment (the diagram's border)
//	declare(m1,m2)    declares messages that no arrow shows
//
// See the package documentation.

// directive is a parsed annotation.
type directive struct {
	word  string
	pos   syntax.Pos
	loop  interaction.Op             // a loop kind, 0 for other words
	names []interaction.Name         // coreg's lifelines, declare's messages
	acts  []interaction.ActionSyntax // sync's actions
}

var loopWords = map[string]interaction.Op{"loopS": interaction.OpLoopS, "loopH": interaction.OpLoopH,
	"loopW": interaction.OpLoopW, "loopP": interaction.OpLoopP}

// parseDirective reads the annotation that starts at at (just after
// "ivc:") and ends at the end of src.
func parseDirective(file string, src []byte, at syntax.Pos) (*directive, error) {
	s := scan.NewAt(file, src, at)
	w, err := s.ExpectIdent("an annotation (strict, coreg, sync, loopS, loopH, loopW, loopP, synch, broadcast, message, gate, env or declare) after ivc:")
	if err != nil {
		return nil, err
	}
	d := &directive{word: w.Text, pos: w.Pos}
	switch w.Text {
	case "strict", "synch", "broadcast", "message", "gate", "env":
	case "loopS", "loopH", "loopW", "loopP":
		d.loop = loopWords[w.Text]
	case "coreg", "declare":
		if d.names, err = nameList(s, w.Text); err != nil {
			return nil, err
		}
	case "sync":
		if d.acts, err = syncActions(s); err != nil {
			return nil, err
		}
	default:
		return nil, s.Errorf(w.Pos, "unknown annotation ivc: %s (want strict, coreg, sync, loopS, loopH, loopW, loopP, synch, broadcast, message, gate, env or declare)", w.Text)
	}
	if t := s.Next(); t.Kind != scan.EOF {
		return nil, s.Unexpected(t, fmt.Sprintf("the end of the line after ivc: %s", w.Text))
	}
	if err := s.Err(); err != nil {
		return nil, err
	}
	return d, nil
}

// nameList reads "(a, b, ...)" after word.
func nameList(s *scan.Scanner, word string) ([]interaction.Name, error) {
	if _, err := s.Expect("(", "after ivc: "+word); err != nil {
		return nil, err
	}
	var names []interaction.Name
	for {
		t, err := s.ExpectName("a name in ivc: " + word + "(...)")
		if err != nil {
			return nil, err
		}
		names = append(names, interaction.Name{Text: t.Text, Pos: t.Pos})
		t = s.Next()
		if t.Is(")") {
			return names, nil
		}
		if !t.Is(",") {
			return nil, s.Unexpected(t, "',' or ')' in ivc: "+word+"(...)")
		}
	}
}

// syncActions reads "(a!m)" or "{a!m,b?m}" after sync.
func syncActions(s *scan.Scanner) ([]interaction.ActionSyntax, error) {
	open := s.Next()
	closer := ")"
	switch {
	case open.Is("("):
	case open.Is("{"):
		closer = "}"
	default:
		return nil, s.Unexpected(open, "'(' or '{' after ivc: sync")
	}
	var acts []interaction.ActionSyntax
	for {
		l, err := s.ExpectName("an action l!m or l?m in ivc: sync")
		if err != nil {
			return nil, err
		}
		a := interaction.ActionSyntax{Lifeline: interaction.Name{Text: l.Text, Pos: l.Pos}}
		switch t := s.Next(); {
		case t.Is("!"):
			a.Kind = interaction.Emission
		case t.Is("?"):
			a.Kind = interaction.Reception
		default:
			return nil, s.Unexpected(t, "'!' or '?' in an action of ivc: sync")
		}
		m, err := s.ExpectName("a message in an action of ivc: sync")
		if err != nil {
			return nil, err
		}
		a.Msg = interaction.Name{Text: m.Text, Pos: m.Pos}
		acts = append(acts, a)
		t := s.Next()
		if t.Is(closer) {
			return acts, nil
		}
		if !t.Is(",") || closer == ")" {
			return nil, s.Unexpected(t, fmt.Sprintf("'%s' after an action of ivc: sync", closer))
		}
	}
}
