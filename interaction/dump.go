package interaction

import (
	"fmt"

	"github.com/ivc-project/ivc/internal/scan"
)

// ParseTerm reads a term in the operator form that Format prints, as the
// papers write terms: "seq(strict(a!m,b?m),loopW(∅))". Operators may be n-ary
// (nested to the right), ∅ may be written o, multi-actions {a!m,b?m},
// coreg(a,b)(i1,i2) and sync(a!m,b?m)(i1,i2). Tests and tools use it to write
// terms without message sugar.
func (s *Store) ParseTerm(text string) (Term, error) {
	p := &dumpParser{st: s, s: scan.New("term", []byte(text))}
	t, err := p.term(0)
	if err != nil {
		return 0, err
	}
	if tok := p.s.Next(); tok.Kind != scan.EOF {
		return 0, p.s.Unexpected(tok, "end of term")
	}
	return t, nil
}

// MustParseTerm is ParseTerm for terms known to be valid; it panics otherwise.
func (s *Store) MustParseTerm(text string) Term {
	t, err := s.ParseTerm(text)
	if err != nil {
		panic(err)
	}
	return t
}

type dumpParser struct {
	st *Store
	s  *scan.Scanner
}

func (p *dumpParser) action() (Action, error) {
	a, err := parseActionSyntax(p.s)
	if err != nil {
		return 0, err
	}
	return p.resolve(scan.Token{Text: a.Lifeline.Text, Pos: a.Lifeline.Pos}, a.Kind == Reception,
		scan.Token{Text: a.Msg.Text, Pos: a.Msg.Pos})
}

func (p *dumpParser) resolve(lifeline scan.Token, reception bool, msg scan.Token) (Action, error) {
	l, ok := p.st.sig.Lifeline(lifeline.Text)
	if !ok {
		return 0, p.s.Errorf(lifeline.Pos, "undeclared lifeline %s", scan.Quote(lifeline.Text))
	}
	m, ok := p.st.sig.Message(msg.Text)
	if !ok {
		return 0, p.s.Errorf(msg.Pos, "undeclared message %s", scan.Quote(msg.Text))
	}
	k := Emission
	if reception {
		k = Reception
	}
	return MakeAction(l, k, m), nil
}

// actions reads actions separated by ',' up to and including the token
// end; want says what was expected in an error.
func (p *dumpParser) actions(end, want string) ([]Action, error) {
	var acts []Action
	for {
		a, err := p.action()
		if err != nil {
			return nil, err
		}
		acts = append(acts, a)
		if tok := p.s.Next(); tok.Is(end) {
			return acts, nil
		} else if !tok.Is(",") {
			return nil, p.s.Unexpected(tok, want)
		}
	}
}

func (p *dumpParser) term(depth int) (Term, error) {
	if depth > maxNesting {
		return 0, p.s.Errorf(p.s.Peek().Pos, "term nested more than %d deep", maxNesting)
	}
	t := p.s.Peek()
	switch {
	case t.Kind == scan.Empty || t.IsIdent("o"):
		p.s.Next()
		return Empty, nil
	case t.Is("{"):
		p.s.Next()
		acts, err := p.actions("}", "',' or '}' in a multi-action")
		if err != nil {
			return 0, err
		}
		return p.st.Act(acts...), nil
	case t.Kind != scan.Ident:
		return 0, p.s.Unexpected(t, "a term")
	}
	p.s.Next()
	if next := p.s.Peek(); next.Is("!") || next.Is("?") {
		p.s.Next()
		m, err := p.s.ExpectIdent("a message name")
		if err != nil {
			return 0, err
		}
		a, err := p.resolve(t, next.Is("?"), m)
		if err != nil {
			return 0, err
		}
		return p.st.Act(a), nil
	}
	op, ok := operators[t.Text]
	if !ok {
		return 0, p.s.Errorf(t.Pos, "unknown operator %q", t.Text)
	}
	var build func(l, r Term) Term
	switch op {
	case OpCoreg:
		if _, err := p.s.Expect("(", "after coreg"); err != nil {
			return 0, err
		}
		var ls Lifelines
		if !p.s.Peek().Is(")") {
			names, err := (&parser{s: p.s}).nameList("a lifeline")
			if err != nil {
				return 0, err
			}
			for _, n := range names {
				l, ok := p.st.sig.Lifeline(n.Text)
				if !ok {
					return 0, p.s.Errorf(n.Pos, "undeclared lifeline %s", scan.Quote(n.Text))
				}
				ls = ls.Add(l)
			}
		} else {
			p.s.Next()
		}
		build = func(l, r Term) Term { return p.st.Coreg(ls, l, r) }
	case OpSync:
		if _, err := p.s.Expect("(", "after sync"); err != nil {
			return 0, err
		}
		acts, err := p.actions(")", "',' or ')' in the actions of sync")
		if err != nil {
			return 0, err
		}
		ma := NewMultiAction(acts...)
		build = func(l, r Term) Term { return p.st.Sync(ma, l, r) }
	default:
		build = func(l, r Term) Term { return p.st.Binary(op, l, r) }
	}
	if _, err := p.s.Expect("(", fmt.Sprintf("after %s", t.Text)); err != nil {
		return 0, err
	}
	var args []Term
	for {
		a, err := p.term(depth + 1)
		if err != nil {
			return 0, err
		}
		args = append(args, a)
		if tok := p.s.Next(); tok.Is(")") {
			break
		} else if !tok.Is(",") {
			return 0, p.s.Unexpected(tok, "',' or ')'")
		}
	}
	if op.IsLoop() {
		if len(args) != 1 {
			return 0, p.s.Errorf(t.Pos, "%s takes one operand", t.Text)
		}
		return p.st.Loop(op, args[0]), nil
	}
	if len(args) < 2 {
		return 0, p.s.Errorf(t.Pos, "%s takes at least two operands", t.Text)
	}
	return foldRight(args, build), nil
}
